"""The names of a session's phases, in one place: the units of work the workers do, where the driver is
(the ledger's `progress`, which a resumed driver reads back and the fault counts name), and the
boundaries a session's hooks are told of (workers/hooks.py).

The strings are recorded (ledgers, fault events, chaos markers): a name changes only with its records.
"""

from __future__ import annotations

# The units of work a worker does, one per instance: a stage's training, its checkpoint, the final evaluation.
TRAINING, CHECKPOINT, EVALUATION = "training", "checkpoint", "evaluation"
WORKER_PHASES = (TRAINING, CHECKPOINT, EVALUATION)

# Where the driver is besides those (SessionLedger.set_progress), in the order a stage passes them.
STARTING = "starting"
TRAINED = "trained"  # the stage's training is done, its checkpoint not started
DECIDED = "decided"  # the stage's decision is in the ledger, not yet applied
APPLIED = "applied"  # freezes and broadcast done and recorded
LOGGED = "logged"  # the stage's MLflow metrics and artifacts written
FINISHING = "finishing"
# Phases whose work a stop throws away (the stage never reached the ledger): memory goes back to the stage's start.
UNFINISHED_STAGE = (TRAINING, TRAINED, CHECKPOINT)

# The boundaries of a stage the driver tells its hooks of (`SessionHooks.at`), each after that step is durable.
AFTER_TRAINING, AFTER_LEDGER, AFTER_APPLY, AFTER_LOGGING = "after_training", "after_ledger", "after_apply", "after_logging"
STAGE_BOUNDARIES = (AFTER_TRAINING, AFTER_LEDGER, AFTER_APPLY, AFTER_LOGGING)
