"""Timing procedures: check timing, play timing, triggers, rule processing, continuous and
replacement effects. Each reads its order and options from the rulebook's timing sections."""
