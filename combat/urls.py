from django.urls import path  # noqa: F401 - patterns are added by the tracker and post-game pages

urlpatterns: list = []


# The post-game wizard (issue 5). The game page links to `post_game` by its literal path.
from combat.views import postgame  # noqa: E402

POST_GAME = "games/<int:game_id>/post-game/<int:warband_id>/"
urlpatterns += [
    path(POST_GAME, postgame.post_game, name="post_game"),
    path(f"{POST_GAME}status/", postgame.post_game_status, name="post_game_status"),
    path(f"{POST_GAME}out-of-action/", postgame.post_game_out_of_action, name="post_game_out_of_action"),
    path(f"{POST_GAME}troops/", postgame.post_game_troops, name="post_game_troops"),
    path(f"{POST_GAME}elites/", postgame.post_game_elites, name="post_game_elites"),
    path(f"{POST_GAME}roll/", postgame.post_game_roll, name="post_game_roll"),
    path(f"{POST_GAME}ransom/", postgame.post_game_ransom, name="post_game_ransom"),
    path(f"{POST_GAME}experience/", postgame.post_game_experience, name="post_game_experience"),
    path(f"{POST_GAME}review/", postgame.post_game_review, name="post_game_review"),
    path(f"{POST_GAME}apply/", postgame.post_game_apply, name="post_game_apply"),
    path(f"{POST_GAME}revert/", postgame.post_game_revert, name="post_game_revert"),
]
