'use strict';
const fs = require('fs');
const path = require('path');

// Every script of this folder, as a command named by its file.
function loadCommands(client) {
  for (const file of fs.readdirSync(__dirname)) {
    if (path.extname(file) !== '.lua') continue;
    const [name, keys] = path.basename(file, '.lua').split('-');
    const lua = fs.readFileSync(path.join(__dirname, file), 'utf8');
    client.defineCommand(name, { numberOfKeys: Number(keys), lua });
  }
}

module.exports = { loadCommands };
