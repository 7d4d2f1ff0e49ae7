"""vassal-adj: read VASSAL modules, saves and logs losslessly and check them against a game's rules."""

__version__ = "0.1.0"
