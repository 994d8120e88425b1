"""What runs or reads a session from the outside: its run directory (rundir), MLflow tracking (tracking), frozen
evaluation (evaluation), the Reflexion baseline's runner (reflexion), calibration runs (calibration) and the
providers' preflight (preflight)."""
