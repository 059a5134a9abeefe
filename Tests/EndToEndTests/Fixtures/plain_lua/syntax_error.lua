print("from stdin", ...)
return 1 +
