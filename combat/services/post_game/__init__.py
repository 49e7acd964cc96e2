"""The post-game wizard's writes, one module per step; callers import the module they need:

- `attempt`        what every step shares: the locks, the history context, the live attempt, `PostGameError`
- `out_of_action`  step 1, correct the fighters taken Out of Action
- `rolls`          steps 2-4, a roll made by the server's dice or typed in (RULING T-7)
- `ransom`         step 3, a Captured fighter's ransom, paid or not (TRAUMA_TABLE.md 12)
- `experience`     step 4, who took part, Glorious Deeds, the organiser's adjustment
- `apply`          step 5, every change to the roster in one transaction, with its before-images
- `revert`         undo the Apply from its before-images, until the warband's next game; the same attempt
                   reopens at Review with its rolls (a roll is final)
- `images`         rows as JSON before-images, and how the Revert puts them back
- `fixes`          correct a typed die, void a server roll (the old roll struck, never deleted); after
                   Apply, revert + apply again in one transaction
- `reopen`         fix one fighter after Apply (Reopen, its Out of Action mark, Settle)
"""
