/dev/fd/3: line 58: benchie: command not found
