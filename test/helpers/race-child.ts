// Opens data folders on command, for the start-race test: for each line "race <dataDir> <atMs> <holdMs>"
// on stdin, waits until the clock reads atMs, opens the folder, and prints "won <openedAt> <closedAt>"
// after holding it holdMs, or "refused <message>". One process serves many races (no start-up per race).
import readline from 'node:readline';
import { childServices } from './child-services.ts';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [command, dataDir, atMs, holdMs] = line.split(' ');
  if (command !== 'race' || !dataDir) continue;
  // Both racers leave the same instant: a busy wait, not a timer (a timer's turn comes late by a few ms).
  while (Date.now() < Number(atMs));
  try {
    const services = childServices(dataDir);
    const openedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
    const closedAt = Date.now();
    await services.close();
    process.stdout.write(`won ${openedAt} ${closedAt}\n`);
  } catch (error) {
    process.stdout.write(`refused ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
