return "lpath"
