-- A view whose button closes it (ScriptViewBrowserTests): the run then ends,
-- and the page says the view was closed rather than "reconnecting".
view.label{ id = "note", text = "press OK to close" }
view.button{ id = "ok", label = "OK", key = "o", on_press = function() view.close() end }
