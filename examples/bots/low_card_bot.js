#!/usr/bin/env node
// A complete Mazzo bot in Node.js for `mazzo match --bot "exec:node low_card_bot.js"`.
// One ActRequest per line on stdin (proto3 JSON), one ActResponse per line on stdout.
// It plays its lowest card (by the Card enum order) and never claims.
"use strict";
const readline = require("readline");

const RANKS = "A23456789TJQK";
const rank = (card) => RANKS.indexOf(card.slice("CARD_".length, -1));

function choose(request) {
  const moves = request.legalMoves || [];
  let best = -1;
  moves.forEach((move, i) => {
    const play = (move.maraffa || {}).playCard;
    if (!play || play.signal) return; // plain plays only
    if (best < 0 || rank(play.card) < rank(moves[best].maraffa.playCard.card)) best = i;
  });
  if (best >= 0) return { index: best };
  // No card to play (e.g. choosing trumps): the first move that is not a claim.
  const other = moves.findIndex((m) => !(m.maraffa && m.maraffa.claim));
  return { index: other >= 0 ? other : 0 };
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  process.stdout.write(JSON.stringify(choose(JSON.parse(line))) + "\n");
});
