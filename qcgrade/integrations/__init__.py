"""Stable import paths for the trainer adapters, which live in :mod:`qcgrade.rewards`.

Trainers load these files by path (verl's ``custom_reward_function.path``,
OpenRLHF's ``--reward.remote_url``), so each re-exports by absolute name.
"""
