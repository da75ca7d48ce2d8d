"""`sogo serve`: a game played in the browser on the game's play mat (docs/serve.md).

`session.py` holds one game and builds what each seat is sent; `words.py` says what each option of a
decision does; `log.py` is the log as a page shows it; `app.py` is the web app (Starlette, served by
uvicorn); `assets/` the page's script and styles (the mat itself is drawn by interpreter/viewer/assets).
"""
