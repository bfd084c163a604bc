-- A league made by schema version 1 (tarneeb 0.1, 2026-11-29): two entrants, a's second
-- version, four games. Kept so that every later schema still opens it (tests/quick/league_schema.rs).
BEGIN TRANSACTION;
CREATE TABLE entrants(
         id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE,
         added_at INTEGER NOT NULL);
INSERT INTO "entrants" VALUES(1,'a',1795935269);
INSERT INTO "entrants" VALUES(2,'b',1795935269);
CREATE TABLE games(
         game INTEGER PRIMARY KEY,
         pair INTEGER,
         seed INTEGER NOT NULL,
         v0 INTEGER NOT NULL, v1 INTEGER NOT NULL, v2 INTEGER NOT NULL, v3 INTEGER NOT NULL,
         winner INTEGER,
         score0 INTEGER NOT NULL,
         score1 INTEGER NOT NULL,
         record TEXT NOT NULL,
         row TEXT NOT NULL,
         finished_at INTEGER NOT NULL,
         mac TEXT NOT NULL);
INSERT INTO "games" VALUES(0,0,-4030626764348681087,1,2,1,2,1,-51,35,'games/000000.jsonl','{"game":0,"pair":0,"seed":14416117309360870529,"seats":["a@1","b@1","a@1","b@1"],"winner":1,"reason":"target","team_scores":[-51,35],"hands":4,"forfeit_seat":null,"record":"games/000000.jsonl","referee_us_per_move":133.1,"hand_deltas":[[-12,6],[-12,12],[-11,11],[-16,6]],"hand_dealers":[1,2,3,0]}',1795935270,'a8de1fdc6fd2aab4074afef69c450455e8fa6cfaa44ce59c873c1e4ebe402139');
INSERT INTO "games" VALUES(1,0,-4030626764348681087,2,1,2,1,0,44,-48,'games/000001.jsonl','{"game":1,"pair":0,"seed":14416117309360870529,"seats":["b@1","a@1","b@1","a@1"],"winner":0,"reason":"target","team_scores":[44,-48],"hands":3,"forfeit_seat":null,"record":"games/000001.jsonl","referee_us_per_move":128.3,"hand_deltas":[[14,-16],[16,-16],[14,-16]],"hand_dealers":[1,2,3]}',1795935270,'80a1dbba002729bd3fc1546b39c1f4187dd6083a7bb2c3b67b62dcc02328d950');
INSERT INTO "games" VALUES(2,1,-8730512010378760701,3,2,3,2,0,33,12,'games/000002.jsonl','{"game":2,"pair":1,"seed":9716232063330790915,"seats":["a@2","b@1","a@2","b@1"],"winner":0,"reason":"target","team_scores":[33,12],"hands":9,"forfeit_seat":null,"record":"games/000002.jsonl","referee_us_per_move":177.9,"hand_deltas":[[8,-8],[11,0],[0,9],[6,-8],[-7,7],[8,0],[0,10],[0,9],[7,-7]],"hand_dealers":[3,0,1,2,3,0,1,2,3]}',1795935271,'3a26981444e85746623dbbf85f26de18a1e0364c4051355282432e222b1ec459');
INSERT INTO "games" VALUES(3,1,-8730512010378760701,2,3,2,3,0,33,12,'games/000003.jsonl','{"game":3,"pair":1,"seed":9716232063330790915,"seats":["b@1","a@2","b@1","a@2"],"winner":0,"reason":"target","team_scores":[33,12],"hands":9,"forfeit_seat":null,"record":"games/000003.jsonl","referee_us_per_move":170.8,"hand_deltas":[[8,-8],[11,0],[0,9],[6,-8],[-7,7],[8,0],[0,10],[0,9],[7,-7]],"hand_dealers":[3,0,1,2,3,0,1,2,3]}',1795935271,'f26524e278ffb0da07bae1f7bb308f4008ff13fa1239606dcf31beec186d2884');
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO "meta" VALUES('settings','["--sandbox","none","--seed","3"]');
INSERT INTO "meta" VALUES('roster','3');
INSERT INTO "meta" VALUES('standings','{"entrants":[{"place":1,"shared_place":false,"name":"b@1","games":4,"wins":3,"draws":0,"losses":1,"forfeits":{},"timeouts":0,"score":0.75,"points_for":124,"points_against":-54,"elo":72.60835840431066,"elo_low":-2821.0299354234508,"elo_high":2966.2466522320724,"board_elo":{"elo":72.60835840431066,"low":-2821.0299354234508,"high":2966.2466522320724}},{"place":2,"shared_place":false,"name":"a@2","games":2,"wins":1,"draws":0,"losses":1,"forfeits":{},"timeouts":0,"score":0.5,"points_for":45,"points_against":45,"elo":24.431428037459764,"elo_low":-3412.9714276469435,"elo_high":3461.834283721863,"board_elo":{"elo":24.431428037459764,"low":-3412.9714276469435,"high":3461.834283721863}},{"place":3,"shared_place":false,"name":"a@1","games":2,"wins":0,"draws":0,"losses":2,"forfeits":{},"timeouts":0,"score":0.0,"points_for":-99,"points_against":79,"elo":-97.03978644177042,"elo_low":-3682.301994690337,"elo_high":3488.222421806796,"board_elo":{"elo":-97.03978644177042,"low":-3682.301994690337,"high":3488.222421806796}}],"winner":{"champion":"b@1","clear":false,"line":"No clear winner: b@1 is first, but its margin over a@2 (+48.2 Elo) is within chance."},"games":4,"pairs":2,"board_pairs":2,"pairs_without_boards":0,"crosstable":{"names":["b@1","a@2","a@1"],"cells":[[{"games":0,"points":0.0},{"games":2,"points":1.0},{"games":2,"points":2.0}],[{"games":2,"points":1.0},{"games":0,"points":0.0},{"games":0,"points":0.0}],[{"games":2,"points":0.0},{"games":0,"points":0.0},{"games":0,"points":0.0}]]},"head_to_head":[{"a":"b@1","b":"a@2","pairs":1,"single_games":0,"pentanomial":[0,0,1,0,0],"n":1,"score":0.5,"low":0.0,"high":1.0,"elo":-0.0,"elo_low":-1199.826195290393,"elo_high":1199.8261952903777,"los":null,"rating_diff":48.1769303668509,"rating_diff_low":-5198.122416187068,"rating_diff_high":5294.476276920769},{"a":"b@1","b":"a@1","pairs":1,"single_games":0,"pentanomial":[0,0,0,0,1],"n":1,"score":1.0,"low":0.0,"high":1.0,"elo":1199.8261952903777,"elo_low":-1199.826195290393,"elo_high":1199.8261952903777,"los":null,"rating_diff":169.6481448460811,"rating_diff_low":-5365.580573331367,"rating_diff_high":5704.876863023529}],"leader":{"leader":"b@1","closest":"a@2","margin":48.1769303668509,"z":0.11668143050765385,"z_needed":12.7062,"clear":false},"verdict":{"leader":"b@1","closest":"a@2","sureness":"too close to call","margin":48.1769303668509,"margin_low":-5198.122416187068,"margin_high":5294.476276920769,"chance_stronger":0.5464437659045103,"games_played":4,"games_scheduled":null,"provisional":false,"not_met":[],"unplayed":[],"sentence":"b@1 leads a@2 by +48.2 Elo [-5198.1, +5294.5] and has scored 75.0% of its games (a@2 50.0%); too close to call (54% sure it is the stronger of the two)."}}');
CREATE TABLE planned(
         game INTEGER PRIMARY KEY,
         pair INTEGER,
         deal_set INTEGER NOT NULL,
         seed INTEGER NOT NULL,
         v0 INTEGER NOT NULL, v1 INTEGER NOT NULL, v2 INTEGER NOT NULL, v3 INTEGER NOT NULL);
INSERT INTO "planned" VALUES(0,0,0,-4030626764348681087,1,2,1,2);
INSERT INTO "planned" VALUES(1,0,0,-4030626764348681087,2,1,2,1);
INSERT INTO "planned" VALUES(2,1,1,-8730512010378760701,3,2,3,2);
INSERT INTO "planned" VALUES(3,1,1,-8730512010378760701,2,3,2,3);
CREATE TABLE ratings(
         version INTEGER NOT NULL,
         game INTEGER NOT NULL,
         games INTEGER NOT NULL,
         elo REAL NOT NULL,
         low REAL NOT NULL,
         high REAL NOT NULL,
         PRIMARY KEY(version, game)) WITHOUT ROWID;
INSERT INTO "ratings" VALUES(1,0,1,-9.17314886009627628027e+01,-3.01561612014205229575e+03,2.83215314294012705433e+03);
INSERT INTO "ratings" VALUES(1,1,2,-9.17314886009627628027e+01,-3.01561612014205229575e+03,2.83215314294012705433e+03);
INSERT INTO "ratings" VALUES(2,0,1,9.17314886009627628027e+01,-2.832153142940127509e+03,3.01561612014205275046e+03);
INSERT INTO "ratings" VALUES(2,1,2,9.17314886009627628027e+01,-2.832153142940127509e+03,3.01561612014205275046e+03);
INSERT INTO "ratings" VALUES(2,2,3,1.13601258030134512507e-14,-3.78440766573056362178e+03,3.78440766573056362178e+03);
INSERT INTO "ratings" VALUES(2,3,4,7.26083584043106640155e+01,-2.82102993542345075184e+03,2.96624665223207239252e+03);
INSERT INTO "ratings" VALUES(3,2,1,1.20411997890802979326e+02,-4.57845502416707495277e+03,4.81927901994868079782e+03);
INSERT INTO "ratings" VALUES(3,3,2,2.4431428037459763658e+01,-3.41297142764694353897e+03,3.46183428372186290295e+03);
CREATE TABLE versions(
         id INTEGER PRIMARY KEY,
         entrant INTEGER NOT NULL REFERENCES entrants(id),
         number INTEGER NOT NULL,
         label TEXT NOT NULL UNIQUE,
         command TEXT NOT NULL,
         previous INTEGER REFERENCES versions(id),
         added_at INTEGER NOT NULL,
         retired_at INTEGER,
         games INTEGER NOT NULL DEFAULT 0,
         place INTEGER,
         elo REAL,
         low REAL,
         high REAL,
         UNIQUE(entrant, number));
INSERT INTO "versions" VALUES(1,1,1,'a@1','["python3","random_bot.py"]',NULL,1795935269,1795935270,2,3,-9.70397864417704170136e+01,-3.68230199469033686902e+03,3.48822242180679586444e+03);
INSERT INTO "versions" VALUES(2,2,1,'b@1','["python3","heuristic_bot.py"]',NULL,1795935269,NULL,4,1,7.26083584043106640155e+01,-2.82102993542345075184e+03,2.96624665223207239252e+03);
INSERT INTO "versions" VALUES(3,1,2,'a@2','["python3","heuristic_bot.py"]',1,1795935270,NULL,2,2,2.4431428037459763658e+01,-3.41297142764694353897e+03,3.46183428372186290295e+03);
COMMIT;
PRAGMA user_version = 1;
