"""GET /editions in English, Japanese, Korean and Vietnamese: `?lang=` or Accept-Language (by
q-values), English when nothing matches, the language said in Content-Language; the card words
of each language from service/card_texts/, every card of every edition, each marked as taken
from a source (`seed`) or translated."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.editions import EDITIONS
from service.languages import CARD_TEXTS_DIR

OTHER_LANGUAGES = ("ja", "ko", "vi")
SOURCES = {"seed", "translated"}

# The names the sources give, transcribed from them (the Japanese Board Game Arena wiki page for
# classic and Premium, a Japanese and a Korean guide to the 2019 edition, a Vietnamese guide to
# the original game). Each edition keeps its own: the Japanese 2019 names are not the classic ones.
SEED_NAMES = {
    ("ja", "classic"): {
        "guard": "兵士", "priest": "聖職者", "baron": "男爵", "handmaid": "女中",
        "prince": "王子", "king": "王", "countess": "伯爵夫人", "princess": "姫",
    },
    ("ja", "premium"): {
        "guard": "兵士", "bishop": "司教", "dowager_queen": "皇太后", "constable": "大臣",
        "count": "伯爵", "sycophant": "追従者", "baroness": "男爵夫人", "cardinal": "枢機卿",
        "jester": "道化師", "assassin": "暗殺者", "handmaid": "女中", "priest": "聖職者",
    },
    ("ja", "2019"): {
        "spy": "密偵", "guard": "衛兵", "priest": "司祭", "baron": "男爵", "handmaid": "侍女",
        "prince": "王子", "chancellor": "宰相", "king": "王", "countess": "伯爵夫人",
        "princess": "姫",
    },
    ("ko", "2019"): {
        "spy": "첩자", "guard": "경비병", "priest": "사제", "baron": "남작", "handmaid": "시녀",
        "prince": "왕자", "chancellor": "수상", "king": "왕", "countess": "백작부인",
        "princess": "공주",
    },
    ("vi", "classic"): {
        "guard": "Lính gác", "priest": "Linh mục", "baron": "Nam tước", "handmaid": "Hầu gái",
        "prince": "Hoàng tử", "king": "Vua", "countess": "Nữ bá tước", "princess": "Công chúa",
    },
}  # fmt: skip


def card_texts(language: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((CARD_TEXTS_DIR / f"{language}.json").read_text("utf-8"))
    return found


def names(body: dict[str, Any], edition: str) -> dict[str, str]:
    shown = next(e for e in body["editions"] if e["id"] == edition)
    return {card["card"]: card["name"] for card in shown["cards"]}


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_card_of_every_edition_has_words_marked_with_their_source(language: str) -> None:
    data = card_texts(language)
    assert data["language"] == language
    assert set(data["editions"]) == set(EDITIONS)
    for edition_id, edition in EDITIONS.items():
        cards = data["editions"][edition_id]
        assert set(cards) == set(edition.cards), (language, edition_id)
        for card, words in cards.items():
            for part in ("name", "effect"):
                assert words[part]["text"].strip(), (language, edition_id, card, part)
                assert words[part]["source"] in SOURCES, (language, edition_id, card, part)


@pytest.mark.parametrize(("language", "edition"), sorted(SEED_NAMES))
def test_where_a_source_names_a_card_that_name_is_used(
    client: FlaskClient, language: str, edition: str
) -> None:
    body = client.get(f"/editions?lang={language}").get_json()
    shown = names(body, edition)
    for card, name in SEED_NAMES[(language, edition)].items():
        assert shown[card] == name, (language, edition, card)
        marked = card_texts(language)["editions"][edition][card]["name"]["source"]
        assert marked == "seed", (language, edition, card)


def test_each_edition_keeps_its_own_names(client: FlaskClient) -> None:
    body = client.get("/editions?lang=ja").get_json()
    assert names(body, "classic")["guard"] == "兵士"
    assert names(body, "2019")["guard"] == "衛兵"
    assert names(body, "2019-classic")["guard"] == "衛兵"  # the 2019 box's classic variant


def test_names_no_source_gives_are_marked_translated() -> None:
    assert card_texts("vi")["editions"]["2019"]["spy"]["name"]["source"] == "translated"
    assert card_texts("ko")["editions"]["premium"]["bishop"]["name"]["source"] == "translated"


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_lang_gives_that_language_and_says_so(client: FlaskClient, language: str) -> None:
    answer = client.get(f"/editions?lang={language}")
    assert answer.status_code == 200
    assert answer.headers["Content-Language"] == language
    assert "Accept-Language" in answer.headers["Vary"]
    body = answer.get_json()
    assert body["language"] == language
    english = client.get("/editions").get_json()
    for shown, rules in zip(body["editions"], english["editions"], strict=True):
        # The same cards, numbers and copies; other words.
        assert [(c["card"], c["rank"], c["copies"]) for c in shown["cards"]] == [
            (c["card"], c["rank"], c["copies"]) for c in rules["cards"]
        ]
        assert all(
            mine["effect"] != theirs["effect"]
            for mine, theirs in zip(shown["cards"], rules["cards"], strict=True)
        )


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("ko;q=0.1, vi;q=0.5", "vi"),
        ("fr, en;q=0.1", "en"),
        ("fr, ko-KR;q=0.3", "ko"),
        ("ja;q=0, en;q=0.5", "en"),
        ("zh-Hant-TW, vi-VN;q=0.2", "vi"),
        ("*", "en"),
        ("", "en"),
        (";;;q=x", "en"),
    ],
)
def test_accept_language_is_negotiated_by_q_values(
    client: FlaskClient, header: str, language: str
) -> None:
    answer = client.get("/editions", headers={"Accept-Language": header})
    assert answer.status_code == 200
    assert answer.headers["Content-Language"] == language
    assert answer.get_json()["language"] == language


def test_lang_wins_over_the_header_and_an_unknown_one_falls_back_to_english(
    client: FlaskClient,
) -> None:
    asked = client.get("/editions?lang=ko", headers={"Accept-Language": "ja"})
    assert asked.headers["Content-Language"] == "ko"
    unknown = client.get("/editions?lang=fr", headers={"Accept-Language": "ja"})
    assert unknown.headers["Content-Language"] == "en"
    assert names(unknown.get_json(), "classic")["guard"] == "Guard"
    regional = client.get("/editions?lang=vi-VN")
    assert regional.headers["Content-Language"] == "vi"


@pytest.mark.parametrize("lang", ["<b>", "ja_JP", "j" * 40, "ja--", "1 2"])
def test_a_malformed_lang_is_a_validation_problem(client: FlaskClient, lang: str) -> None:
    answer = client.get("/editions", query_string={"lang": lang})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert answer.get_json()["type"].endswith("/validation-error")


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    header=st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=200),
    lang=st.one_of(st.none(), st.text(max_size=40)),
)
def test_any_language_input_is_an_answer_or_a_problem(
    client: FlaskClient, header: str, lang: str | None
) -> None:
    query = {} if lang is None else {"lang": lang}
    answer = client.get("/editions", query_string=query, headers={"Accept-Language": header})
    assert answer.status_code in (200, 422), answer.get_data(as_text=True)
    if answer.status_code == 200:
        assert answer.headers["Content-Language"] in ("en", "ja", "ko", "vi")
    else:
        assert answer.mimetype == "application/problem+json"


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_each_countess_names_the_cards_that_force_her_in_that_edition(
    client: FlaskClient, language: str
) -> None:
    """A source's sentence that tells another rule than the edition's is not used as it is
    (the Vietnamese guide's Countess forgets the Princess of the classic edition)."""
    body = client.get(f"/editions?lang={language}").get_json()
    for shown in body["editions"]:
        rules = EDITIONS[shown["id"]]
        cards = {card["card"]: card for card in shown["cards"]}
        text = cards["countess"]["effect"]
        for forcing in ("king", "prince", "princess"):
            named = cards[forcing]["name"] in text
            expected = forcing in rules.cards["countess"].must_play_beside[rules.id]
            assert named == expected, (language, rules.id, forcing, text)
