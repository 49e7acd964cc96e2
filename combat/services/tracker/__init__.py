"""The in-game damage tracker's writes, one module per concern; callers import the module they need.

- `errors`: `TrackerError` and its kinds `TrackerConflict`, `TrackerBlocked` (domain errors, no HTTP status);
- `board`: `tracker_start`, the lock, the commit of an action with its before-images, `tracker_undo`;
- `damage`: `tracker_apply_damage`, `tracker_roll_attack` (a single model through the Damage table);
- `units`: a unit's Health Pool and Damage Allocation, `tracker_order_ties`, the shooting engagement and
  `tracker_end_shooting` (RULING A-5);
- `confusion`: `tracker_mark_friends`, `tracker_confusion_test`, `tracker_confusion_choose`;
- `fatigue`: `tracker_adjust_fatigue`, `tracker_recover_harm`;
- `marks`: `tracker_mark` (the board's "+1 Harm" and "+1 Injury", a rule other than Damage);
- `out_of_action`: a single model of a Trench Crusade board marked Out of Action, or the mark taken back;
- `injury`: `injury_roll` (Trench Crusade's Injury and Bloodbath Rolls) and `tracker_marker` (Blood and Blessing
  Markers, Down);
- `end`: `tracker_end_game`.

Each function is keyword-only, one transaction, under django-pghistory context; permission checks are the
views' job.
"""
