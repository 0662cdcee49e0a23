g = "var-file"
