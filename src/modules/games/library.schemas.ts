// TypeBox schemas of GET /me/favorites and GET /me/recent.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { GameSchema } from './games.schemas.js';

const TIMESTAMP = { examples: Timestamp.examples as string[] };

export const RECENT_LIMIT_DEFAULT = 12;
export const RECENT_LIMIT_MAX = 50;

export const FavoritesData = Type.Object({
  games: Type.Array(GameSchema, {
    description: "the player's favourite games (published or beta), the most recently favourited first",
  }),
});

export const LastSaveSchema = Type.Object(
  {
    slot: Type.Integer({ minimum: 0, description: 'the save slot' }),
    label: Nullable(Type.String({ description: 'the label the game gave the save, or null' })),
    updated_at: Type.String({ ...TIMESTAMP, description: 'timestamp YYYY-MM-DD HH:MM:SS (UTC) of that save' }),
  },
  {
    description:
      "the player's most recently updated save of the game (the slot saved last), or null when every slot is empty",
  },
);

export const RecentEntrySchema = Type.Object(
  {
    game: GameSchema,
    last_played_at: Type.String({
      ...TIMESTAMP,
      description:
        'timestamp YYYY-MM-DD HH:MM:SS (UTC): the last time a play session of the game was heard from (start or heartbeat)',
    }),
    last_save: Nullable(LastSaveSchema),
  },
  { title: 'RecentGame', description: 'a game the player has played' },
);
export type RecentEntry = Static<typeof RecentEntrySchema>;

export const RecentData = Type.Object({
  recent: Type.Array(RecentEntrySchema, { description: 'the games the player played, the most recently played first' }),
});

export const RecentQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: RECENT_LIMIT_MAX,
      default: RECENT_LIMIT_DEFAULT,
      description: `how many games at most, 1 to ${RECENT_LIMIT_MAX}; default ${RECENT_LIMIT_DEFAULT}`,
    }),
  ),
});

export const CountMeta = Type.Object({ count: Type.Integer({ description: 'number of entries in the list' }) });
