"""vassal-adj: read VASSAL modules, saves and logs losslessly and check them against a game's rules.

    import vassal_adj
    mod = vassal_adj.load_module("game.vmod")
    game = vassal_adj.load_save("turn.vsav")
    game.write("copy.vsav")
"""

__version__ = "0.1.0"

from vassal_adj.load import load_module, load_save  # noqa: E402  (after __version__, read by setup.cfg)
from vassal_adj.rules.engine import adjudicate  # noqa: E402
from vassal_adj.state_builder import game_state  # noqa: E402

__all__ = ["load_module", "load_save", "__version__", "game_state", "adjudicate"]
