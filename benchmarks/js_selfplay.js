// Times the game author's JavaScript Quick Play simulator on the work benchmarks/selfplay.py gives
// our engine: rule-of-thumb bot against itself over the 45 pairings of the ten two-color decks,
// after a warm-up, in CPU time. Prints one line of JSON. Run by `benchmarks/selfplay.py --js DIR`.
//
// The simulator is not part of this project (its code is not copied here). Get it from the game
// author's public repository, https://github.com/mrenne/tokenstcg (the files tools/common.js,
// tools/sim/quickplay.js, tools/sim/load-cards.js and design/pilot-deck-60-cards.md), and give
// its folder:
//
//   node benchmarks/js_selfplay.js DIR [ROUNDS] [WARMUP_CPU_SECONDS]
//
// A round is one game of each of the 45 pairings, first player alternating (as the author's
// tools/sim/quickplay-balance.js plays them: decks padded to 25 cards with their cheapest Commons).
// Node's compilers optimise a function only after it has run many times: measured on this machine,
// 450 games played after a warm-up of 90 games ran at 1,900 games per CPU second, after 27,000 games
// at 13,500. So the warm-up plays whole rounds until WARMUP_CPU_SECONDS (default 4) of CPU time
// have passed, then the timed rounds are played.
'use strict';
const path = require('path');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node benchmarks/js_selfplay.js DIR [ROUNDS] [WARMUP_CPU_SECONDS] (DIR: a checkout of github.com/mrenne/tokenstcg)');
  process.exit(2);
}
const rounds = +(process.argv[3] || 10);
const warmup = +(process.argv[4] || 4);
let sim, cards;
try {
  cards = require(path.resolve(dir, 'tools/sim/load-cards.js'));
  sim = require(path.resolve(dir, 'tools/sim/quickplay.js'));
} catch (e) {
  console.error(`cannot load the simulator from ${dir}: ${e.message}`);
  process.exit(2);
}
cards.load();
const MIN = 25;
const legalDeck = suits => {
  const d = sim.deckFor(suits);
  const commons = d.filter(c => c.rar === 'C').sort((a, b) => a.cost - b.cost || a.name.localeCompare(b.name));
  for (let i = 0; d.length < MIN && i < commons.length; i++) d.push(commons[i]);
  return d;
};
const suits = ['G', 'B', 'K', 'W', 'R'];
const decks = [];
for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) decks.push(legalDeck([suits[i], suits[j]]));

function run(n) {
  let firstWins = 0, decided = 0, roundsSum = 0, games = 0;
  for (let r = 0; r < n; r++) {
    for (let a = 0; a < decks.length; a++) for (let b = a + 1; b < decks.length; b++) {
      const first = games % 2;
      const res = sim.play(decks[a], decks[b], false, first);
      if (res.winner >= 0) { decided++; if (res.winner === first) firstWins++; }
      roundsSum += res.rounds;
      games++;
    }
  }
  return { games, firstWins, decided, roundsSum };
}

sim.seedRng(31337);
const cpuSince = start => { const c = process.cpuUsage(start); return (c.user + c.system) / 1e6; };
const warm0 = process.cpuUsage();
let warmGames = 0;
while (cpuSince(warm0) < warmup) warmGames += run(1).games;
const cpu0 = process.cpuUsage();
const wall0 = process.hrtime.bigint();
const res = run(rounds);
const cpu = process.cpuUsage(cpu0);
const wall = Number(process.hrtime.bigint() - wall0) / 1e9;
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({
  games: res.games, cpu: cpuSeconds, wall, games_cpu: res.games / cpuSeconds, games_wall: res.games / wall,
  first_wins: res.firstWins / res.games, decided: res.decided, rounds: res.roundsSum / res.games, warmup_games: warmGames, node: process.version,
}));
