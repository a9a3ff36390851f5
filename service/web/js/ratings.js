// Ratings: an edition's leaderboard (#/leaderboards/<edition>[/<page>]) and a player's record
// (#/players/<id>) with the rating's history drawn as a small inline SVG chart.

import { api } from "./api.js";
import { card, editionName, editions } from "./cards.js";
import { h, replace } from "./dom.js";
import { formatDateTime, formatNumber, t } from "./i18n.js";
import { currentPlayer } from "./player.js";

const PAGE_SIZE = 25;
const DEFAULT_EDITION = "2019";

const decimal = (value) => formatNumber(value, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const playerLink = (id, name) => h("a", { href: `#/players/${encodeURIComponent(id)}` }, name || id);

/** Show an edition's leaderboard, one page of it, in `root`. */
export async function showLeaderboard(root, editionId = DEFAULT_EDITION, pageText = "1") {
  const page = Math.max(1, Number.parseInt(pageText, 10) || 1);
  document.title = t("app.title", { page: t("leaderboard.title") });
  const reader = currentPlayer();
  const query = { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, ...(reader ? { player: reader.id } : {}) };
  const board = await api.leaderboard(editionId, query);
  const tabs = h("nav", { class: "editions", "aria-label": t("leaderboard.editions") },
    editions().map((edition) => h("a", {
      href: `#/leaderboards/${encodeURIComponent(edition.id)}`,
      "aria-current": edition.id === editionId ? "page" : null,
    }, editionName(edition.id))).flatMap((link, i) => (i ? [" · ", link] : [link])));
  const rows = board.players.map((line) => h("tr", { "data-player": line.player, class: line.player === reader?.id ? "you" : null },
    h("td", {}, formatNumber(line.rank)),
    h("th", { scope: "row" }, playerLink(line.player, t("leaderboard.name", { name: line.name || line.player, you: line.player === reader?.id ? "yes" : "no" }))),
    h("td", {}, decimal(line.rating.score)),
    h("td", {}, formatNumber(line.rating.games))));
  const body = rows.length
    ? h("div", { class: "table-scroll" }, h("table", { class: "ratings", id: "leaderboard" },
      h("caption", {}, t("leaderboard.caption", { edition: editionName(editionId), games: board.min_games })),
      h("thead", {}, h("tr", {},
        [t("leaderboard.rank"), t("leaderboard.player"), t("leaderboard.score"), t("leaderboard.games")]
          .map((words) => h("th", { scope: "col" }, words)))),
      h("tbody", {}, rows)))
    : h("p", { class: "muted", id: "leaderboard-empty" }, t("leaderboard.empty", { games: board.min_games }));
  const pager = h("p", { class: "pager" },
    page > 1 ? h("a", { href: `#/leaderboards/${encodeURIComponent(editionId)}/${page - 1}` }, t("leaderboard.previous")) : null,
    page > 1 && rows.length === PAGE_SIZE ? " · " : null,
    rows.length === PAGE_SIZE ? h("a", { href: `#/leaderboards/${encodeURIComponent(editionId)}/${page + 1}` }, t("leaderboard.next")) : null);
  replace(root, h("section", { class: "panel", "aria-labelledby": "leaderboard-title" },
    h("h1", { id: "leaderboard-title" }, t("leaderboard.heading", { edition: editionName(editionId) })),
    tabs,
    h("p", { class: "muted" }, t("leaderboard.help")),
    ownStanding(board, editionId, reader),
    body, pager));
}

/** Where the reader stands: their rank, or how many ranked games until they appear here. */
function ownStanding(board, editionId, reader) {
  const own = board.standing;
  const rating = own?.rating;
  let words;
  if (own?.rank) words = t("leaderboard.you.ranked", { rank: own.rank, score: decimal(rating.score), games: rating.games });
  else if (rating) {
    words = t("leaderboard.you.provisional", {
      score: decimal(rating.score), games: rating.games, left: Math.max(board.min_games - rating.games, 0),
    });
  } else words = t("leaderboard.you.unrated", { edition: editionName(editionId), games: board.min_games });
  return h("section", { class: "notice standing", id: "standing", "aria-labelledby": "standing-title", "data-rank": own?.rank ?? "" },
    h("h2", { id: "standing-title" }, t("leaderboard.you.title")),
    h("p", {}, words),
    h("p", {}, own?.rank || rating
      ? h("a", { href: `#/players/${encodeURIComponent(reader.id)}` }, t("leaderboard.you.record"))
      : h("a", { href: "#/" }, t("leaderboard.you.play"))));
}

/** Show a player's record in `root`. */
export async function showPlayerRecord(root, playerId) {
  const record = await api.playerRecord(playerId);
  document.title = t("app.title", { page: record.name });
  replace(root, h("section", { class: "panel", id: "player-record", "aria-labelledby": "player-title" },
    h("h1", { id: "player-title" }, record.name),
    h("p", {}, t("player.totals", { games: record.games, wins: record.wins, abandons: record.abandons })),
    record.editions.length ? null : h("p", { class: "muted" }, t("player.no_games")),
    record.editions.map(editionSection),
    h("p", {}, h("a", { href: "#/leaderboards" }, t("app.nav.leaderboards")))));
}

function editionSection(entry) {
  const id = `edition-${entry.edition}`;
  const rating = entry.rating;
  const facts = [
    [t("player.rating"), rating ? [decimal(rating.score), h("span", { class: "muted small rating-help" }, t("rating.explained"))] : t("player.unrated")],
    [t("player.games"), formatNumber(entry.games)],
    [t("player.win_rate"), formatNumber(entry.win_rate, { style: "percent", maximumFractionDigits: 0 })],
    [t("player.abandons"), formatNumber(entry.abandons)],
    [t("player.rounds"), t("player.rounds_value", { showdown: entry.rounds_showdown, elimination: entry.rounds_elimination })],
    [t("player.most_played"), entry.most_played ? t("player.most_played_value", { card: card(entry.edition, entry.most_played.card).name, times: entry.most_played.times }) : "—"],
  ];
  return h("section", { class: "edition-record", "aria-labelledby": id, "data-edition": entry.edition },
    h("h2", { id }, editionName(entry.edition)),
    h("dl", { class: "facts" }, facts.flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])),
    entry.history.length ? chart(entry) : null);
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

/** The rating's history: the rating (mu - 3 sigma, the number the page shows) after each rated
 *  game as a line, what it may yet become (mu ± 3 sigma) as a band. */
function chart(entry) {
  const width = 320;
  const height = 120;
  const pad = 24;
  const points = entry.history;
  const lows = points.map((p) => p.mu - 3 * p.sigma);
  const highs = points.map((p) => p.mu + 3 * p.sigma);
  const low = Math.floor(Math.min(...lows, 0));
  const high = Math.ceil(Math.max(...highs, 50));
  const x = (i) => pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (value) => height - pad - ((value - low) * (height - 2 * pad)) / (high - low || 1);
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(lows[i]).toFixed(1)}`).join(" ");
  const band = [...points.map((p, i) => `${x(i).toFixed(1)},${y(highs[i]).toFixed(1)}`),
    ...points.map((p, i) => `${x(i).toFixed(1)},${y(lows[i]).toFixed(1)}`).reverse()].join(" ");
  const last = points[points.length - 1];
  const label = t("player.chart_label", { edition: editionName(entry.edition), games: points.length, score: decimal(last.mu - 3 * last.sigma) });
  const titleId = `chart-${entry.edition}`;
  const figure = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": titleId, class: "rating-chart" },
    svg("title", { id: titleId }, label),
    svg("polygon", { points: band, class: "band" }),
    svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "axis" }),
    svg("path", { d: line, class: "mu" }),
    ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(lows[i]).toFixed(1), r: 2.5, class: "mu" },
      svg("title", {}, `${formatDateTime(Date.parse(p.at))}: ${decimal(lows[i])}`))));
  return h("figure", { class: "chart" }, figure, h("figcaption", { class: "muted small" }, label));
}
