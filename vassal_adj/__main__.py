"""`python -m vassal_adj`: the `vassal-adj` command line, where the console script is not on PATH."""

from vassal_adj.cli import main

if __name__ == "__main__":
    main(prog_name="vassal-adj")
