-- Table ownership leases for several nodes on one database. Never edit once applied.
-- Ids are 16-byte blobs.

-- Which node owns a table's room, until when, and under which epoch. The epoch grows by one
-- each time the lease changes hands or is taken again after it lapsed; writes that carry an
-- older epoch are refused (fencing). A released lease keeps its row so the epoch never starts
-- over. `expires_at_ms` is on the database's clock (milliseconds since the Unix epoch).
create table table_lease (
    table_id blob not null,
    node_id text not null,
    epoch integer not null,
    expires_at_ms integer not null,
    constraint table_lease_pk primary key (table_id),
    constraint table_lease_table_fk foreign key (table_id) references game_table (id)
        on delete cascade,
    constraint table_lease_node_id_check check (node_id <> ''),
    constraint table_lease_epoch_check check (epoch >= 1)
) strict;

-- Surviving nodes look for lapsed leases.
create index table_lease_expires_idx on table_lease (expires_at_ms);
