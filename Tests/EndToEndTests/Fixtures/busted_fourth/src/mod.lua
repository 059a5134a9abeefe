return "src"
