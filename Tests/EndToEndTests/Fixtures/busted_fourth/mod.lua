return "root"
