"""What counts as a failure, and what is kept of one: value types shared by the agents, the rulebook and the protocol.

`trigger.py` decides, step by step, whether a reward crosses a failure threshold (`FailureTrigger`, the
reward trigger); `snapshot.py` is the failure snapshot the learners read and the rulebook takes its
trigger nodes from. Both are pure and sit below every package that reads them.
"""
