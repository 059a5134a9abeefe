error("raised while the file loads")
