-- Headless check of executor-lsp-server with Neovim's built-in LSP client
-- (Debian's Neovim 0.7; the API calls are those of 0.7 and later), started
-- by the configuration of lsp/README.md (the test passes it as init.lua):
-- the filetype, the attached client, capabilities, a verifier diagnostic,
-- hover, prepareRename and rename. CHECK_FILE names the file to open.
local file = os.getenv("CHECK_FILE")
vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
print("filetype=" .. vim.bo.filetype)
-- The configuration's FileType autocommand starts the client.
local id, client
vim.wait(10000, function()
  for clientId, c in pairs(vim.lsp.buf_get_clients(buf)) do
    id, client = clientId, c
  end
  return client and client.initialized
end, 50)
if not client then
  print("no client attached")
  vim.cmd("qa!")
end
print("client=" .. client.name)
local caps = client.server_capabilities
local out = {}
for _, k in ipairs({ "renameProvider", "codeActionProvider", "semanticTokensProvider",
  "foldingRangeProvider", "documentFormattingProvider", "inlayHintProvider", "hoverProvider",
  "definitionProvider" }) do
  table.insert(out, k .. "=" .. tostring(caps[k] ~= nil and caps[k] ~= false))
end
print(table.concat(out, " "))
-- Diagnostics arrive for a broken file; hover answers on an executor op.
local diags
vim.wait(10000, function() diags = vim.diagnostic.get(buf); return #diags > 0 end, 50)
print("diagnostics=" .. #diags .. " first=" .. (diags[1] and diags[1].message or "none"))
local line = vim.fn.search("executor.open") - 1
local col = vim.fn.getline(line + 1):find("executor.open") + 2
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
local result = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 10000)
local hover = result and result[id] and result[id].result
print("hover=" .. (hover and "yes" or "no"))
local value = vim.fn.getline(line + 1):find("%%") -- the op's result, %s
params.position.character = value
local rename = vim.lsp.buf_request_sync(buf, "textDocument/prepareRename", params, 10000)
local r = rename and rename[id] and rename[id].result
print("prepareRename=" .. (r and vim.inspect(r.range and r.range.start or r) or "none"))
local edits = vim.lsp.buf_request_sync(buf, "textDocument/rename",
  vim.tbl_extend("force", params, { newName = "session" }), 10000)
local e = edits and edits[id] and edits[id].result
local n = 0
if e and e.changes then for _, list in pairs(e.changes) do n = n + #list end end
print("rename edits=" .. n)
vim.cmd("qa!")
