// The API objects the portal reads (spec §2, DESIGN §5/§8).

export interface Game {
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  category: string;
  tags: string[];
  version: string;
  orientation: string;
  players: { min: number; max: number };
  leaderboard: { enabled: boolean; order: 'asc' | 'desc'; unit: string };
  save_slots: number;
  requires_premium: boolean;
  status: string;
  author: string;
  released_at: string;
  cover_url: string;
  play_url: string;
  stats: { plays: number; playtime_hours: number };
  is_favorite?: boolean;
}

export interface GamesMeta {
  count: number;
  categories: Record<string, number>;
}

export interface LeaderboardMeta {
  game: string;
  board: string;
  period: GamePlatform.Period;
  order: 'asc' | 'desc';
  unit: string;
  limit: number;
  offset: number;
  total?: number;
}
