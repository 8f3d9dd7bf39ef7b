"""Ratings as a pure fold (issue 29): each eligibility rule, the bot-held seat counted last, the
repeat rule, fixed bot ratings, and a simulated league that ranks players by their hidden
strength (Kendall's tau at least 0.70 after 20 games each)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from app.ratings import (
    MIN_MOVES,
    PROVISIONAL_GAMES,
    GameResult,
    Rating,
    Ratings,
    SeatPlay,
    bot_rating,
    eligibility,
    fold,
    places,
)

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def human(player, moves=10, bot_moves=0):
    return SeatPlay(player, None, moves, bot_moves)


def bot(level="normal", moves=10):
    return SeatPlay(None, level, 0, moves)


def game(seats, ranks, at=T0, game_id="g", ruleset="testgame"):
    return GameResult(game_id, ruleset, at, tuple(ranks), tuple(seats))


def test_two_human_accounts_are_rated_one_against_bots_apart_and_none_not_at_all():
    assert eligibility(game([human("a"), human("b")], [1, 2]))[0] == "rated"
    assert eligibility(game([human("a"), human("b"), bot()], [1, 2, 3]))[0] == "rated"
    assert eligibility(game([human("a"), bot()], [1, 2]))[0] == "bots"
    assert eligibility(game([bot(), bot("hard")], [1, 2])) == (None, "No human player took part.")


def test_one_account_in_two_seats_is_not_rated():
    assert eligibility(game([human("a"), human("a")], [1, 2])) == (None, "One account held two seats.")


def test_a_seat_with_too_few_moves_makes_the_game_unrated():
    short = game([human("a"), human("b", moves=MIN_MOVES - 1)], [1, 2])
    pool, reason = eligibility(short)
    assert pool is None and reason == f"Seat 2 made fewer than {MIN_MOVES} moves."
    # Moves a bot made for the seat count toward the few moves the game needs.
    assert eligibility(game([human("a"), human("b", 1, MIN_MOVES)], [1, 2]))[0] == "rated"


def test_a_game_without_a_complete_result_is_not_rated():
    assert eligibility(game([human("a"), human("b")], [1]))[0] is None
    assert Ratings().apply(game([human("a"), human("b")], [1])) is None


def test_a_seat_a_bot_played_for_most_of_its_moves_counts_last():
    """Ann left early: she 'won' on points but her seat was mostly the bot's: she is last."""
    played = game([human("a", moves=3, bot_moves=20), human("b"), human("c")], [1, 2, 3])
    assert places(played) == [4, 2, 3]
    # Below every seat its player did play, even one that lost on points.
    assert places(game([human("a", 1, 9), human("b")], [1, 2])) == [3, 2]
    changes = Ratings().apply(played)
    assert changes["a"][1].mu < changes["a"][0].mu and changes["b"][1].mu > changes["b"][0].mu
    assert changes["a"][1].wins == 0 and changes["b"][1].wins == 1


def test_bots_keep_their_fixed_ratings_and_beating_a_stronger_bot_gains_more():
    easy, hard = Ratings(), Ratings()
    gain_easy = easy.apply(game([human("a"), bot("easy")], [1, 2]))["a"]
    gain_hard = hard.apply(game([human("a"), bot("hard")], [1, 2]))["a"]
    assert gain_hard[1].mu - gain_hard[0].mu > gain_easy[1].mu - gain_easy[0].mu > 0
    assert list(easy.table) == [("a", "testgame", "bots")]  # nothing stored for the bot
    assert bot_rating("random") < bot_rating("easy") < bot_rating("normal") < bot_rating("hard")
    assert bot_rating(None) == bot_rating("normal") == 1500


def test_against_bots_games_never_touch_the_rated_pool():
    ratings = fold(
        [
            game([human("a"), bot()], [1, 2], game_id="1"),
            game([human("a"), human("b")], [2, 1], at=T0 + timedelta(days=2), game_id="2"),
        ]
    )
    assert ratings.get("a", "testgame", "bots").games == 1
    assert ratings.get("a", "testgame", "rated").games == 1
    assert ratings.get("a", "testgame", "rated").mu < ratings.get("b", "testgame", "rated").mu


def test_the_same_two_players_again_within_a_day_count_less():
    first = game([human("a"), human("b")], [1, 2], game_id="1")
    again = game([human("a"), human("b")], [1, 2], at=T0 + timedelta(hours=3), game_id="2")
    later = game([human("a"), human("b")], [1, 2], at=T0 + timedelta(days=3), game_id="2")
    soon, apart = Ratings(), Ratings()
    soon.apply(first)
    apart.apply(first)
    repeat = soon.apply(again)["a"]
    fresh = apart.apply(later)["a"]
    assert repeat[2] == 0.5 and fresh[2] == 1.0
    assert 0 < repeat[1].mu - repeat[0].mu < fresh[1].mu - fresh[0].mu
    # A different opponent the same day counts fully.
    other = game([human("a"), human("c")], [1, 2], at=T0 + timedelta(hours=3), game_id="3")
    assert apart.apply(other)["a"][2] == 1.0


def test_the_shown_rating_starts_at_1500_and_is_provisional_for_20_games():
    assert Rating().shown == 1500 and Rating().provisional
    assert not Rating(games=PROVISIONAL_GAMES).provisional
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional


def test_the_fold_is_the_same_whatever_order_the_games_are_given_in():
    games = [
        game(
            [human("a"), human("b"), human("c")],
            random.Random(i).sample([1, 2, 3], 3),
            at=T0 + timedelta(hours=i * 5),
            game_id=str(i),
        )
        for i in range(30)
    ]
    assert fold(games).table == fold(reversed(games)).table


def _kendall_tau(xs, ys):
    concordant = discordant = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            s = (xs[i] - xs[j]) * (ys[i] - ys[j])
            concordant += s > 0
            discordant += s < 0
    return (concordant - discordant) / (concordant + discordant)


def test_a_simulated_league_ranks_players_by_strength_after_20_games():
    """200 players of hidden strength play 2-4 seat games (a quarter with a bot of fixed
    strength), places drawn from strength plus luck; after 20 games each, the ratings rank the
    players with Kendall's tau of at least 0.70 against their strength."""
    rng = random.Random(29)
    strength = {f"p{i}": rng.gauss(0, 1) for i in range(200)}
    bots = {"easy": -0.8, "normal": 0.0, "hard": 0.6}
    played = {p: 0 for p in strength}
    games, at = [], T0
    while min(played.values()) < 20:
        size = rng.choice([2, 3, 4])
        waiting = sorted(strength, key=lambda p: (played[p], rng.random()))
        people = waiting[: size - 1] + ([] if rng.random() < 0.25 else [waiting[size - 1]])
        seats = [human(p) for p in people]
        perf = [strength[p] + rng.gauss(0, 1) for p in people]
        if len(seats) < size:
            level = rng.choice(list(bots))
            seats.append(bot(level))
            perf.append(bots[level] + rng.gauss(0, 1))
        order = sorted(range(size), key=lambda i: -perf[i])
        ranks = [0] * size
        for place, i in enumerate(order, start=1):
            ranks[i] = place
        at += timedelta(minutes=47)
        games.append(game(seats, ranks, at=at, game_id=str(len(games))))
        for p in people:
            played[p] += 1
    ratings = fold(games)
    players = list(strength)
    mus = [ratings.get(p, "testgame", "rated").mu for p in players]
    tau = _kendall_tau([strength[p] for p in players], mus)
    print(f"league: {len(games)} games, Kendall tau {tau:.3f}")
    assert tau >= 0.70, tau
