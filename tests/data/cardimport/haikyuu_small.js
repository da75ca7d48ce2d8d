// Original cards in the shape of the public fan list haikyuu-cards (cards_data.js): made-up players
// and texts, for tests/test_cardtext.py. Printings share card_no; nulls are parameters not printed.
const CARDS_DATA = {"cards": [
  {"card_no": "HVX-001", "rarity_code": "N", "name": "星野 遥", "category": "CHARACTER",
   "affiliation": "烏野·1年", "school": "烏野", "position": "MB",
   "srv": 2, "blk": 3, "rcv": 1, "tos": 0, "atk": 2, "skill_jp": "-"},
  {"card_no": "HVX-001", "rarity_code": "NP", "name": "星野 遥", "category": "CHARACTER",
   "affiliation": "烏野·1年", "school": "烏野", "position": "MB",
   "srv": 2, "blk": 3, "rcv": 1, "tos": 0, "atk": 2, "skill_jp": "-"},
  {"card_no": "HVX-002", "rarity_code": "R", "name": "月岡 湊&森 航", "category": "CHARACTER",
   "affiliation": "烏野･3年,音駒･2年", "school": "烏野", "position": "S,S",
   "srv": 1, "blk": null, "rcv": 2, "tos": 4, "atk": null,
   "skill_jp": "[=トスエリア]\r\nこのキャラのトスポイントに+1する。"},
  {"card_no": "HVX-003", "rarity_code": "N", "name": "決めの一本", "category": "EVENT",
   "affiliation": "音駒", "school": "音駒", "position": "-",
   "srv": null, "blk": null, "rcv": null, "tos": null, "atk": null,
   "skill_jp": "[=ブロック][=アタック]\r\nカード1枚を引く。"},
  {"card_no": "HVX-004", "rarity_code": "N", "name": "青木 監督", "category": "EVENT",
   "affiliation": "梟谷", "school": "梟谷", "position": "監督",
   "srv": null, "blk": null, "rcv": null, "tos": null, "atk": null,
   "skill_jp": "[=レシーブ]\nカード1枚を引く。"}
], "meta": {}};
