"""`vassal-adj batch`: a referee's run over a folder of games (issue 16).

discovery (which files make a game, in what order) -> worker (verify, check and vp of one game,
in a process that loads the module and pack once) -> evidence (fingerprints, their chain, the
time between files) -> summary_text / summary_html (the table). run.py drives the pool and
state.py keeps what is finished, so an interrupted batch resumes.
"""
