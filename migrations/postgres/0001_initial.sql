-- CityTable schema, Postgres dialect. Never edit once applied: add a new numbered file instead.

-- A table people sit at: its codes, its status and the server-owned settings document.
create table game_table (
    id uuid not null,
    game text not null,
    invite_code text not null,
    spectator_code text not null,
    status text not null,
    public boolean not null,
    doc jsonb not null,
    updated_at_ms bigint not null,
    constraint game_table_pk primary key (id),
    constraint game_table_invite_code_key unique (invite_code),
    constraint game_table_spectator_code_key unique (spectator_code),
    constraint game_table_codes_differ_check check (invite_code <> spectator_code),
    constraint game_table_status_check check (status in ('lobby', 'playing', 'finished'))
);

-- Recovery at start reads only unfinished tables.
create index game_table_unfinished_idx on game_table (status) where status <> 'finished';

-- One game played at a table; `number` counts games per table from 1 (rematches add games).
create table game (
    id uuid not null,
    table_id uuid not null,
    number integer not null,
    setup jsonb not null,
    started_at_ms bigint not null,
    outcome jsonb,
    constraint game_pk primary key (id),
    constraint game_table_fk foreign key (table_id) references game_table (id) on delete cascade,
    constraint game_table_number_key unique (table_id, number)
);

-- The move log: the truth from which every game state is rebuilt.
create table game_move (
    game_id uuid not null,
    seq bigint not null,
    entry jsonb not null,
    at_ms bigint not null,
    constraint game_move_pk primary key (game_id, seq),
    constraint game_move_game_fk foreign key (game_id) references game (id) on delete cascade,
    constraint game_move_seq_check check (seq >= 0)
);
