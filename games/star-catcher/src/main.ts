// Star Catcher: a Phaser game, bundled from npm at build time (src/modules/portal/demo-build.ts). Its loader fetches a
// texture atlas (JSON + PNG), an image and two sounds from the game's own origin: what engine games need from the frame.
/// <reference path="../../../sdk/gameplatform.d.ts" />
import Phaser from 'phaser';

const WIDTH = 800;
const HEIGHT = 600;
const LIVES = 3;
const ITEMS = { star: 1, gem: 5, rock: 0 } as const;
type Item = keyof typeof ITEMS;

const status = document.getElementById('status')!;
/** What the page shows, for assistive technology and for the browser tests (body data-state, data-assets). */
function report(state: 'loading' | 'ready' | 'playing' | 'paused' | 'over', line: string): void {
  document.body.dataset.state = state;
  status.textContent = line;
}

let playerName = '';
let shellPaused = false;

class Preload extends Phaser.Scene {
  constructor() {
    super('preload');
  }

  preload(): void {
    const bar = this.add.rectangle(WIDTH / 2 - 150, HEIGHT / 2, 0, 12, 0xfde047).setOrigin(0, 0.5);
    this.load.on('progress', (value: number) => bar.setSize(300 * value, 12));
    // Every one of these is an XHR/fetch of the game's own files: it needs the frame's own origin.
    this.load.atlas('sprites', 'assets/atlas.png', 'assets/atlas.json');
    this.load.image('sky', 'assets/sky.png');
    this.load.audio('catch', 'assets/catch.wav');
    this.load.audio('bump', 'assets/bump.wav');
  }

  create(): void {
    const frames = this.textures.get('sprites').getFrameNames().sort();
    const sounds = ['catch', 'bump'].filter((key) => this.cache.audio.exists(key));
    document.body.dataset.assets = JSON.stringify({ frames, sky: this.textures.exists('sky'), sounds });
    this.scene.start('play');
  }
}

class Play extends Phaser.Scene {
  private basket!: Phaser.GameObjects.Image;
  private items!: Phaser.GameObjects.Group;
  private label!: Phaser.GameObjects.Text;
  private banner!: Phaser.GameObjects.Text;
  private keys!: Phaser.Types.Input.Keyboard.CursorKeys;
  private score = 0;
  private lives = LIVES;
  private running = false;
  private spawnIn = 0;

  constructor() {
    super('play');
  }

  create(): void {
    this.add.image(WIDTH / 2, HEIGHT / 2, 'sky');
    this.items = this.add.group();
    this.basket = this.add.image(WIDTH / 2, HEIGHT - 40, 'sprites', 'basket');
    this.label = this.add.text(16, 12, '', { fontFamily: 'system-ui, sans-serif', fontSize: '24px', color: '#fef3c7' });
    this.banner = this.add
      .text(WIDTH / 2, HEIGHT / 2 - 40, '', {
        fontFamily: 'system-ui, sans-serif',
        fontSize: '30px',
        color: '#fef3c7',
        align: 'center',
      })
      .setOrigin(0.5);
    this.keys = this.input.keyboard!.createCursorKeys();
    this.input.on('pointermove', (pointer: Phaser.Input.Pointer) => this.moveTo(pointer.x));
    this.input.on('pointerdown', (pointer: Phaser.Input.Pointer) =>
      this.running ? this.moveTo(pointer.x) : this.start(),
    );
    this.input.keyboard!.on('keydown-SPACE', () => this.running || this.start());
    this.showTitle();
  }

  /** Says hello once the shell has told who plays. */
  greet(): void {
    if (this.banner && !this.running) this.showTitle();
  }

  private showTitle(): void {
    this.banner.setText(`${playerName ? `Hello ${playerName}!\n` : ''}Press Space, click or tap to start`);
    this.updateLabel();
    report('ready', 'Star Catcher is ready. Press Space, click or tap to start.');
  }

  private start(): void {
    if (shellPaused) return;
    this.items.clear(true, true);
    this.score = 0;
    this.lives = LIVES;
    this.running = true;
    this.spawnIn = 0;
    this.banner.setText('');
    this.updateLabel();
    report('playing', 'Playing. Catch the stars, dodge the rocks.');
  }

  private moveTo(x: number): void {
    if (this.running) this.basket.x = Phaser.Math.Clamp(x, 48, WIDTH - 48);
  }

  private updateLabel(): void {
    this.label.setText(`Score ${this.score}   Lives ${'♥'.repeat(this.lives)}`);
  }

  private spawn(): void {
    const roll = Math.random();
    const kind: Item = roll < 0.12 ? 'gem' : roll < 0.4 ? 'rock' : 'star';
    const item = this.add.image(Phaser.Math.Between(30, WIDTH - 30), -20, 'sprites', kind);
    item.setData('kind', kind).setData('speed', 140 + Math.min(this.score, 60) * 4 + Math.random() * 60);
    this.items.add(item);
  }

  override update(_time: number, delta: number): void {
    if (!this.running) return;
    if (this.keys.left.isDown) this.moveTo(this.basket.x - 0.5 * delta);
    if (this.keys.right.isDown) this.moveTo(this.basket.x + 0.5 * delta);
    this.spawnIn -= delta;
    if (this.spawnIn <= 0) {
      this.spawn();
      this.spawnIn = Math.max(280, 700 - this.score * 6);
    }
    for (const object of this.items.getChildren() as Phaser.GameObjects.Image[]) {
      object.y += (object.getData('speed') as number) * (delta / 1000);
      if (Math.abs(object.y - this.basket.y) < 28 && Math.abs(object.x - this.basket.x) < 54) this.caught(object);
      else if (object.y > HEIGHT + 30) object.destroy();
    }
  }

  private caught(object: Phaser.GameObjects.Image): void {
    const kind = object.getData('kind') as Item;
    object.destroy();
    if (kind === 'rock') {
      this.lives -= 1;
      this.sound.play('bump');
      this.cameras.main.shake(120, 0.01);
    } else {
      this.score += ITEMS[kind];
      this.sound.play('catch');
    }
    this.updateLabel();
    if (this.lives === 0) void this.gameOver();
  }

  private async gameOver(): Promise<void> {
    this.running = false;
    this.items.clear(true, true);
    this.banner.setText(`Night over: ${this.score} points\nSaving your score…`);
    report('over', `Game over with ${this.score} points.`);
    let line: string;
    try {
      const result = await GamePlatform.scores.submit(this.score);
      line = `Rank #${result.rank.rank}${result.personal_best ? ' · new personal best!' : '.'}`;
    } catch (error) {
      line = GamePlatform.isError(error) ? `Score not saved: ${error.message}.` : 'Score not saved.';
    }
    this.banner.setText(`Night over: ${this.score} points\n${line}\nPress Space, click or tap to play again`);
    status.textContent = `Game over with ${this.score} points. ${line}`;
  }

  /** The shell paused the game: the daily limit is about to close the session, or another tab took the game over. */
  pauseForShell(replaced: boolean): void {
    if (!this.banner) return; // not created yet: start() checks shellPaused
    this.running = false;
    const why = replaced ? 'you are playing in another tab' : 'your free time for today is up';
    this.banner.setText(`Paused: ${why}`);
    report('paused', `Paused: ${why}.`);
  }

  /** The player chose to play here again (a new session): a fresh night, as after a game over. */
  resumeFromShell(): void {
    if (!this.banner) return;
    this.banner.setText('Press Space, click or tap to start');
    report('ready', 'Ready. Press Space, click or tap to start.');
  }
}

const game = new Phaser.Game({
  type: Phaser.AUTO,
  parent: 'stage',
  width: WIDTH,
  height: HEIGHT,
  backgroundColor: '#0b1026',
  scale: { mode: Phaser.Scale.FIT, autoCenter: Phaser.Scale.CENTER_BOTH },
  scene: [Preload, Play],
  banner: false,
});

GamePlatform.on('pause', ({ reason }) => {
  shellPaused = true;
  (game.scene.getScene('play') as Play | null)?.pauseForShell(reason === 'replaced');
});
GamePlatform.on('resume', () => {
  shellPaused = false;
  (game.scene.getScene('play') as Play | null)?.resumeFromShell();
});
GamePlatform.init().then(
  ({ player }) => {
    playerName = player.display_name;
    (game.scene.getScene('play') as Play | null)?.greet();
  },
  () => report(document.body.dataset.state as 'loading', 'Open this game from the Game Platform to save your scores.'),
);
