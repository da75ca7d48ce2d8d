"""`sogo serve`: a game played in the browser on the game's play mat (docs/serve.md).

`session.py` holds one game and builds what each seat is sent (a decision worded by
interpreter/viewer/wording.py, as the terminal player words it); `log.py` is the log one page shows
(the brief log of interpreter/viewer/brief_log.py, or the engine's full log); `app.py` is the web app
(Starlette, served by uvicorn); `assets/` the page's script and styles (the mat itself is drawn by
interpreter/viewer/assets).
"""
