print("chunk on stdin", ...)
