-- A headless Neovim session for tests/server.rs: attach `wirelint server`
-- to the four-speakers fixture, rename a field in the shared script, and
-- write every diagnostic Neovim holds (path:line code) to $WL_OUT.
local root = vim.env.WL_ROOT
local out = vim.env.WL_OUT
local client = vim.lsp.start_client({
  name = "wirelint",
  cmd = { vim.env.WL_BIN, "server" },
  root_dir = root,
})
vim.cmd("edit " .. root .. "/scripts/claim.lua")
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)
vim.wait(10000, function() return vim.lsp.get_client_by_id(client).initialized end, 50)
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for i, l in ipairs(lines) do
  lines[i] = l:gsub("'pb', ARGV", "'picked_by', ARGV")
end
vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
local function found()
  local rows = {}
  for _, d in ipairs(vim.diagnostic.get()) do
    local name = vim.api.nvim_buf_get_name(d.bufnr):sub(#root + 2)
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
    table.insert(rows, string.format("%s:%d %s", name, d.lnum + 1, code))
  end
  table.sort(rows)
  return rows
end
vim.wait(20000, function() return #found() >= 3 end, 100)
local f = io.open(out, "w")
f:write(table.concat(found(), "\n") .. "\n")
f:close()
vim.lsp.stop_client(client)
vim.cmd("qall!")
