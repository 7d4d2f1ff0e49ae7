"""Syntax: VASSAL's escaped sequences, the command stream, piece traits and buildFile XML."""
