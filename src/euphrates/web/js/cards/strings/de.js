// Deutsche Texte des Kartentischs (Wettstreit der Könige), mit den Begriffen der
// Spielregel (2005): Tempel, Landwirtschaft, Markt, Bevölkerung; Priester, Bauer,
// Händler, König; Schatzkarte, Brücke, Schiff, Katastrophe, Revolte, Krieg.
/** @type {Record<string, string>} */
export const CARDS_DE = {
  "cards.title": "Wettstreit der Könige",
  "cards.dynasty.lion": "Löwe", "cards.dynasty.bull": "Stier", "cards.dynasty.bow": "Bogen", "cards.dynasty.urn": "Vase",
  "cards.bot_name": "{dynasty} (Computer, {level})",

  "cards.hand": "Deine Karten",
  "cards.hand_of": "Karten von {name}",
  "cards.hand_empty": "Keine Karten auf der Hand.",
  "cards.on": "auf {spot}",
  "cards.in_supply": "nicht eingesetzt",
  "cards.catastrophe": "Katastrophe",
  "cards.pick_hint": "Wähle eine Karte oder einen Anführer, dann einen der leuchtenden Plätze.",
  "cards.place_hint": "Jetzt einen leuchtenden Platz anklicken (auch mit Pfeiltasten und Eingabetaste).",
  "cards.place_hint_touch": "Jetzt einen leuchtenden Platz antippen.",
  "cards.no_targets": "Dafür gibt es gerade keinen Platz.",
  "cards.type_hint": "zum Beispiel r3, g3-4, T3.2 oder commit 2",
  "cards.cover_hint": "Die Karten bleiben verdeckt, bis {name} hinsieht.",
  "cards.reveal": "Ich bin {name}: meine Karten zeigen",
  "cards.turn_end": "Zugende",
  "cards.why.turn": "Nicht dein Zug: {name} ist dran.",
  "cards.why.waits": "Nicht dein Zug: {name} entscheidet zuerst ({what}).",
  "cards.why.decide": "Erst entscheiden: {what}.",
  "cards.why.nowhere": "Keine Karte ohne Anführer, auf die er gestellt werden kann (C-5).",
  "cards.why.stuck": "Keine andere Karte ohne Anführer, auf die er ziehen kann (C-5).",
  "cards.hover_hint": "Zeige auf eine Spalte, um ihr Königreich und die Stärke seiner Anführer zu sehen.",
  "cards.hover_hint_touch": "Tippe eine Spalte an, um ihr Königreich und die Stärke seiner Anführer zu sehen.",

  "cards.spot.column": "Spalte {col}: Karte anlegen",
  "cards.info.column": "Spalte {col}",
  "cards.info.columns": "Spalten {a}–{b}",
  "cards.info.treasures": "Schatzkarten: {n}",
  "cards.info.ships": "Schiffe: {n}",
  "cards.info.no_leader": "kein Anführer",
  "cards.info.strength": "{who}: {leader} auf {spot} · Krieg {war} · Revolte {revolt}",

  "cards.cards_n": "auf der Hand: {n}",
  "cards.has_catastrophe": "Katastrophe bereit",
  "cards.no_catastrophe": "Katastrophe verbraucht",
  "cards.pile": "Siegpunkte-Stapel",
  "cards.pile_height": "Höhe {n}",
  "cards.pile_closed_hint": "Ein Stapel: nur die oberste Karte und die Höhe sind zu sehen (C-9)",
  "cards.pile_turned_hint": "Für die Wertung umgedreht: die Karten des Stapels nach Farben (C-9, C-18)",
  "cards.pile_open_hint": "Offene Stapel nach Farben (C-9)",
  "cards.deck": "Nachziehstapel",
  "cards.deck_hint": "Karten zum Nachziehen",
  "cards.removed": "{n} ungesehen aus dem Spiel",
  "cards.discard": "Ablagestapel",
  "cards.discard_hint": "Ausgelegte Karten und die von Schiffen ersetzten Karten, offen (G-3)",
  "cards.ships_left": "Schiffe",
  "cards.out": "Aus dem Spiel",
  "cards.out_hint": "Durch Katastrophen entfernte Karten",

  "cards.replay.piles": "Hände und Siegpunkte-Stapel",
};

/** Short German summaries of the card game's rulings an engine message names. */
/** @type {Record<string, string>} */
export const CARDS_DE_RULINGS = {
  "C-5": "Ein Anführer kommt auf eine Karte ohne Anführer: eine Spaltenkarte, eine Kopfkarte oder eine Brücke – nicht auf ein Schiff.",
  "C-6": "Eine Karte wird unten an eine Spalte mit weniger als 8 Karten angelegt oder als Brücke in eine leere Lücke, wenn beide Nachbarspalten mindestens 3 Karten haben.",
  "C-7": "Die Katastrophe (einmal im Spiel) entfernt eine Karte ohne Anführer; keine Kopfkarte, kein Schiff.",
  "C-9": "Der Siegpunkt wird mit einer Karte dieser Farbe aus der Hand bezahlt.",
  "C-10": "In der Revolte zählen nur rote Karten aus der eigenen Hand.",
  "C-11": "Wähle einen der noch bestehenden Kriege.",
  "C-12": "Im Krieg zählen nur Karten der Kriegsfarbe aus der eigenen Hand.",
  "C-13": "Der Siegpunkt wird mit einer Karte der Kriegsfarbe aus der Hand bezahlt.",
  "C-14": "Nur Schatzkarten des verbundenen Königreichs, jede ersetzt durch eine rote Karte aus der Hand, bis nur noch eine dort liegt.",
  "C-15": "Nur ein noch vorhandenes, passendes Schiff.",
  "C-16": "Der Schiffs-Siegpunkt wird in der Farbe des Anführers bezahlt; der König ist hier kein Joker.",
};

/** German for the server's undo refusals where the card game differs (G-3). */
/** @type {[string, string][]} */
export const CARDS_DE_UNDO = [
  ["revealed hidden", "Seitdem wurde Verdecktes aufgedeckt (eine Karte gezogen oder eine Brücke umgedreht) (G-3)."],
];
