'use strict';

const pending = [];

function enqueue(client, q, id) {
  // The id is left out: `push` reads it as ARGV[1].
  return client.push([`q:${q}:job:${id}`, `q:${q}:pending`]);
}

function enqueueAll(client, q, ids) {
  client.on('error', () => {});
  // An array's own `push`, no command.
  pending.push(ids);
  return Promise.all(ids.map(id => client.push([`q:${q}:job:${id}`, `q:${q}:pending`, id])));
}

module.exports = { enqueue, enqueueAll };
