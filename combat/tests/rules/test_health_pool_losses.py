"""Whole `PoolLoss` values and their sentences (seed 004, RULINGS H-1, H-2)."""

from combat.rules import HealthPool, PoolLoss, explain_pool_loss, lose_health_points


def test_ruling_H_1_whole_models_go_and_the_rest_is_carried():
    before = HealthPool(3, 2, lost=1)
    assert lose_health_points(before, 4) == PoolLoss(2, 0, HealthPool(1, 2, lost=1), 4, before)


def test_ruling_H_2_a_loss_on_an_empty_pool_is_ignored_and_names_no_h_1():
    loss = lose_health_points(HealthPool(0, 2), 3)
    assert loss == PoolLoss(0, 3, HealthPool(0, 2), 3, HealthPool(0, 2))
    assert explain_pool_loss(loss) == (
        "Lost 3 Health Points: 0 models removed, the 3 beyond what the Health Pool had are ignored (RULING H-2)."
    )


def test_ruling_H_1_is_named_only_when_a_model_has_more_than_one_health_point():
    assert (
        explain_pool_loss(lose_health_points(HealthPool(3, 1), 2))
        == "Lost 2 Health Points: 2 models removed."
    )
    assert explain_pool_loss(lose_health_points(HealthPool(3, 2), 2)) == (
        "Lost 2 Health Points: 1 model removed (RULING H-1)."
    )
