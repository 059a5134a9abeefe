-- A view whose ids, texts, labels and title are hostile to a web page: each
-- must show as the same text, never as markup (ScriptViewBrowserTests).
local hostile = {
  "<script>window.pwned=1</script>",
  "\"><img src=x onerror=window.pwned=1>",
  "javascript:window.pwned=1",
  "abc\u{202E}fed",
}

view.title(hostile[1])
for i, text in ipairs(hostile) do
  view.label{ id = text, text = text }
  view.button{ id = "b" .. i, label = text, key = tostring(i) }
end
view.big{ id = "big", text = hostile[2] }
