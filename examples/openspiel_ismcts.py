"""OpenSpiel's information-set MCTS against random play, in either game.

    python examples/openspiel_ismcts.py --game board --players 2 --simulations 20

Seat 0 is OpenSpiel's `ISMCTSBot` (it samples the worlds it searches with the state's
`resample_from_infostate`, which deals anew only what seat 0 cannot see); the other
seats play uniformly at random; chance nodes (the first player, every draw from the
bag or deck) are sampled by their probabilities. Prints the result and, last, a line
of JSON.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import euphrates.adapters.openspiel as adapter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20, help="ISMCTS budget per decision")
    parser.add_argument("--rollout", type=int, default=30, help="random rollout length")
    parser.add_argument("--max-moves", type=int, default=None, help="cut the game off here")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    name = adapter.BOARD_NAME if args.game == "board" else adapter.CARDS_NAME
    params = {"players": args.players}
    if args.max_moves is not None:
        params["max_moves"] = args.max_moves
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(args.seed)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(args.seed + 1), max_length=args.rollout
        ),
        uct_c=2.0,
        max_simulations=args.simulations,
        random_state=np.random.RandomState(args.seed + 2),
    )
    state = game.new_initial_state()
    decisions = 0
    start = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        action = bot.step(state) if seat == 0 else int(rng.choice(state.legal_actions()))
        if seat == 0:
            print(f"decision {decisions}: seat 0 plays {state.action_to_string(seat, action)}")
        state.apply_action(action)
        decisions += 1
    seconds = time.perf_counter() - start
    returns = state.returns()
    print(f"returns by seat (ISMCTS is seat 0): {returns}; {decisions} decisions, {seconds:.1f} s")
    print(json.dumps({"game": args.game, "returns": returns, "decisions": decisions}))


if __name__ == "__main__":
    main()
