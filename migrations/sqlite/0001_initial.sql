-- CityTable schema, SQLite dialect. Never edit once applied: add a new numbered file instead.
-- Ids are 16-byte blobs, JSON documents are text, booleans are 0/1.

-- A table people sit at: its codes, its status and the server-owned settings document.
create table game_table (
    id blob not null,
    game text not null,
    invite_code text not null,
    spectator_code text not null,
    status text not null,
    public integer not null,
    doc text not null,
    updated_at_ms integer not null,
    constraint game_table_pk primary key (id),
    constraint game_table_invite_code_key unique (invite_code),
    constraint game_table_spectator_code_key unique (spectator_code),
    constraint game_table_codes_differ_check check (invite_code <> spectator_code),
    constraint game_table_status_check check (status in ('lobby', 'playing', 'finished')),
    constraint game_table_public_check check (public in (0, 1)),
    constraint game_table_doc_check check (json_valid(doc))
) strict;

-- Recovery at start reads only unfinished tables.
create index game_table_unfinished_idx on game_table (status) where status <> 'finished';

-- One game played at a table; `number` counts games per table from 1 (rematches add games).
create table game (
    id blob not null,
    table_id blob not null,
    number integer not null,
    setup text not null,
    started_at_ms integer not null,
    outcome text,
    constraint game_pk primary key (id),
    constraint game_table_fk foreign key (table_id) references game_table (id) on delete cascade,
    constraint game_table_number_key unique (table_id, number),
    constraint game_setup_check check (json_valid(setup)),
    constraint game_outcome_check check (outcome is null or json_valid(outcome))
) strict;

-- The move log: the truth from which every game state is rebuilt. Clustered on its key so a
-- game's moves are read in order from one range.
create table game_move (
    game_id blob not null,
    seq integer not null,
    entry text not null,
    at_ms integer not null,
    constraint game_move_pk primary key (game_id, seq),
    constraint game_move_game_fk foreign key (game_id) references game (id) on delete cascade,
    constraint game_move_seq_check check (seq >= 0),
    constraint game_move_entry_check check (json_valid(entry))
) strict, without rowid;
