"""What the engine derives from the state: continuous values, the abilities that work, triggers, idle flags
and the changes that make them stale (the layer between the table and the timing procedures)."""
