// Two sections of the SDK guide (/docs/sdk): saving without overwriting a save made elsewhere, and how the play view
// hosts a game (its size, orientation, full screen, and what `pause`/`resume` mean when another tab takes over).
import { escapeHtml } from './html.js';

// tabindex: a block that scrolls sideways can be scrolled from the keyboard too.
const code = (text: string) => `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`;

const SAVE_PATTERN = `// The version of each slot this page last saw (from saves.list(), a load or its own save).
const seen = new Map();                          // slot -> version; absent: "I saw it empty"

async function save(slot, state, label) {
  try {
    const result = await GamePlatform.saves.save(slot, state, { label, expected_version: seen.get(slot) ?? 0 });
    seen.set(slot, result.version);
    return true;
  } catch (error) {
    if (!GamePlatform.isError(error) || error.code !== 'version_conflict') throw error;
    // Saved meanwhile on another device or in another tab: never write over it without asking.
    const theirs = (await GamePlatform.saves.list()).find((s) => s.slot === slot);
    const choice = await askPlayer(\`Slot \${slot + 1} now holds "\${theirs?.label}" from elsewhere. Overwrite it?\`);
    if (choice === 'overwrite') {
      seen.set(slot, error.details.current_version);  // the version the player has now seen and chosen to replace
      return save(slot, state, label);               // a second conflict asks again
    }
    if (choice === 'other-slot') return save(firstEmptySlot(), state, label);
    return false;                                    // keep theirs
  }
}

// At \`pause\` for the limit nobody can answer (the game is removed a moment later): save where nothing is lost.
GamePlatform.on('pause', async ({ reason }) => {
  if (reason !== 'limit') return;
  try {
    await GamePlatform.saves.save(0, snapshot(), { label: 'Autosave', expected_version: seen.get(0) ?? 0 });
  } catch (error) {
    if (GamePlatform.isError(error) && error.code === 'version_conflict' && firstEmptySlot() !== undefined) {
      await GamePlatform.saves.save(firstEmptySlot(), snapshot(), { label: 'Autosave', expected_version: 0 });
    }
  }
});`;

export const savesSectionHtml = `<h2 id="saves">Saves that never overwrite another device's</h2>
<p>A player may play on a phone in the morning and on a laptop at night, or open the game in two tabs. Save with
<code>expected_version</code>, always: the version of the slot your page last saw (<code>0</code> when it saw the slot empty).
If the slot changed meanwhile, the save is refused with <code>version_conflict</code> (<code>error.details.current_version</code>
is the version stored now) and nothing is written. Then ask the player (overwrite, save to an empty slot, or keep the other
save), and never adopt the new version silently: a save that retries with <code>current_version</code> without asking
writes over the other device's progress.</p>
${code(SAVE_PATTERN)}
<p>The demo game Tile Merge does exactly this (<code>games/tile-merge/saves.js</code> in the service's source).</p>`;

export const playViewSectionHtml = `<h2 id="play-view">The play view</h2>
<ul>
<li><strong>Size.</strong> The game's frame fills the screen below the shell's slim bar (the game's name, the free time left,
full screen, quit): on a desktop, and on a phone held upright or on its side. Lay the game out to fit its frame
(<code>100vw</code> × <code>100vh</code> inside the frame, or container query units) rather than a fixed size: nothing should scroll.
The demo games put their controls beside the board when the frame is wider than tall (<code>@media (min-aspect-ratio: 5/4)</code>).</li>
<li><strong>Orientation.</strong> <code>"orientation"</code> in <code>game.json</code>: <code>any</code> (the frame takes the whole
stage), <code>portrait</code> or <code>landscape</code>. A game of one orientation on a stage of the other is letterboxed to a
3:4 (portrait) or 4:3 (landscape) frame; on a touch screen held the other way the shell first asks the player to turn the device (or play
anyway); in full screen it locks the orientation where the browser allows.</li>
<li><strong>Full screen.</strong> The shell's button puts the bar and the game in full screen together, so a free player keeps
the time left and a way out in view. The last free minute shows in red.</li>
<li><strong>One game, one tab.</strong> Starting a game takes over the player's session of it anywhere else. The other tab sends
its game <code>pause</code> with <code>reason: "replaced"</code>, says the game is being played in another tab (or on
another device) and offers <em>Play here</em>, which starts a new session and sends <code>resume</code>. Stop the game loop on
<code>pause</code>, go on from the same state on <code>resume</code>; do not save on <code>replaced</code> (the other tab plays
on). Tabs never take the game back on their own, and a takeover is not counted as a new play.</li>
</ul>`;
