"""The rulebooks, JSON Schemas and sample cards shipped with Sogo.

In a source checkout they are the top-level folders `rulebooks/`, `schemas/` and `cards/`; a wheel
carries copies of them here, as package data (setup.py maps the folders in), so an installed Sogo
finds them with importlib.resources (interpreter/locations.py).
"""
