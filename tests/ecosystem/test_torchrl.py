"""TorchRL's PettingZooWrapper(use_mask=True) over plunder envs made with wait_action=True:
rollouts of a few hundred steps with a masked policy, AEC and parallel forms."""

from __future__ import annotations

import pettingzoo
import pytest

torchrl = pytest.importorskip("torchrl", reason="TorchRL is in the 'ecosystem' extra")
torch = pytest.importorskip("torch")

from torchrl.envs.libs.pettingzoo import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import MarlGroupMapType  # noqa: E402

from plunder.envs import ENV_IDS, game_class, make, make_parallel, pettingzoo_id  # noqa: E402

from .doc_examples import run_doc_example  # noqa: E402

SIMULTANEOUS_IDS = [e for e in ENV_IDS if game_class(e).simultaneous]
GROUP = "agents"


def _wrap(pz_env, **kwargs):
    """TorchRL's wrapper as the docs use it: every agent in one group 'agents'."""
    return PettingZooWrapper(pz_env, use_mask=True, seed=0,
                             group_map=MarlGroupMapType.ALL_IN_ONE_GROUP, **kwargs)


_DOC_NAMESPACE: dict = {}


def _doc_namespace() -> dict:
    """The docs' TorchRL example, run once for this module."""
    if not _DOC_NAMESPACE:
        _DOC_NAMESPACE.update(run_doc_example("torchrl"))
    return _DOC_NAMESPACE


def _masked_policy(env):
    """The docs' masked MLP policy."""
    return _doc_namespace()["masked_policy"](env)


def _chosen_legal(rollout):
    """Whether each agent's action was allowed by its action_mask: (steps, agents)."""
    action = rollout[GROUP, "action"]
    return rollout[GROUP, "action_mask"].gather(-1, action.unsqueeze(-1)).squeeze(-1)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_aec_rollout_with_masked_policy(env_id):
    """raw_env raises on an illegal move, so 300 steps prove the masks are followed."""
    env = _wrap(make(env_id, raw=True, num_players=3, wait_action=True), return_state=True)
    rollout = env.rollout(300, policy=_masked_policy(env), break_when_any_done=False)
    assert rollout.batch_size == torch.Size([300])
    acting = rollout[GROUP, "mask"]                       # one acting agent per step
    assert (acting.sum(-1) == 1).all()
    assert _chosen_legal(rollout)[acting].all()
    num_actions = env.full_action_spec[GROUP, "action"].space.n
    assert num_actions == game_class(env_id)(3).num_actions + 1
    # the acting agent is never offered "wait"
    assert not rollout[GROUP, "action_mask"][..., -1][acting].any()
    assert rollout["state"].shape[-1] == 3 * rollout[GROUP, "observation", "observation"].shape[-1]


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_rollout_with_masked_policy(env_id):
    """Every agent acts every step; those not deciding can only 'wait'. (A short
    max_turns makes even long games end and restart within the rollout.)"""
    env = _wrap(make_parallel(env_id, num_players=3, wait_action=True, illegal_reward=None,
                              max_turns=15))
    rollout = env.rollout(300, policy=_masked_policy(env), break_when_any_done=False)
    assert rollout.batch_size == torch.Size([300])
    assert _chosen_legal(rollout).all()
    masks = rollout[GROUP, "action_mask"]
    assert masks.any(-1).all()                             # never an all-zero mask
    waiting = masks[..., -1]
    assert (masks[waiting].sum(-1) == 1).all()            # waiting: "wait" is all they have
    assert (~waiting).any()                                # someone decided every so often
    assert rollout["next", "done"].any()                   # games finished and restarted


@pytest.mark.parametrize("env_id", SIMULTANEOUS_IDS)
def test_parallel_random_rollout_draws_from_masks(env_id):
    """rollout() without a policy draws every agent's action from its action_mask."""
    env = _wrap(pettingzoo.make("parallel", pettingzoo_id(env_id), num_players=4,
                                wait_action=True, illegal_reward=None))
    rollout = env.rollout(300, break_when_any_done=False)
    assert rollout.batch_size == torch.Size([300]) and _chosen_legal(rollout).all()


def test_doc_example_torchrl():
    namespace = _doc_namespace()
    for name in ("aec_rollout", "par_rollout", "random_rollout"):
        assert namespace[name].batch_size == torch.Size([300])
    assert _chosen_legal(namespace["par_rollout"]).all()
