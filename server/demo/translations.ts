import type { Db } from '../db/types.ts';
import { insertTranslation } from '../translations/repo.ts';

/** A guide's texts in another language, step by step in the guide's order (a step left out stays English). */
interface DemoTranslation {
  key: string;
  langid: string;
  title: string;
  summary: string;
  intro: string;
  steps: { title: string; lines: string[] }[];
}

/**
 * The demo workshop's second language: German, for the lockout guide and the mast hose guide that needs
 * it. The hose guide's other prerequisite, the pre-shift inspection, and every other guide have no
 * German text: read in German, they are the English guide (iFixit answers so, and the app marks it).
 */
export const DEMO_TRANSLATIONS: DemoTranslation[] = [
  {
    key: 'lockout',
    langid: 'de',
    title: 'Freischalten und Kennzeichnen vor Arbeiten an Werkstattmaschinen',
    summary: 'Jede Energiequelle einer Maschine trennen und die Spannungsfreiheit prüfen, bevor Sie hineingreifen.',
    intro:
      'Jedes Jahr werden Menschen von Maschinen verletzt, die jemand anderes eingeschaltet hat, während ' +
      'sie darin arbeiteten. ' +
      'Freischalten und Kennzeichnen macht das unmöglich: **Ihr** Schloss am Hauptschalter, **Ihr** ' +
      'Schlüssel in Ihrer Tasche.',
    steps: [
      {
        title: 'Die Menschen in der Nähe informieren',
        lines: ['Sagen Sie dem Bediener und allen in der Nähe, dass Sie die Maschine freischalten, und warum.'],
      },
      {
        title: 'Die Maschine normal abschalten',
        lines: [
          'Stoppen Sie die Maschine mit ihren normalen Bedienelementen, damit kein Arbeitsgang halb fertig bleibt.',
          'Warten Sie, bis jedes bewegte Teil vollständig stillsteht.',
        ],
      },
      {
        title: 'Jede Energiequelle trennen',
        lines: [
          'Öffnen Sie den elektrischen Hauptschalter.',
          'Schließen Sie die Ventile für Druckluft, Hydraulik oder Gas.',
          'Eine Maschine kann mehrere Trennstellen haben. Die vollständige Liste steht auf dem Schild an der Maschine.',
        ],
      },
      {
        title: 'Schloss und Anhänger anbringen',
        lines: [
          'Hängen Sie Ihr eigenes Schloss an jede Trennstelle, mit einem Bügel, wenn auch andere abschließen müssen.',
          'Tragen Sie Ihren Namen, das Datum und den Grund auf dem Anhänger ein.',
          'Eine Person, ein Schloss, ein Schlüssel. Verleihen Sie Ihren Schlüssel nie.',
        ],
      },
      {
        title: 'Gespeicherte Energie abbauen',
        lines: [
          'Lassen Sie Luft- und Hydraulikdruck ab, sichern Sie angehobene Teile und lassen Sie heiße Teile abkühlen.',
          'Entladen Sie Kondensatoren, wie es das Handbuch der Maschine beschreibt.',
        ],
      },
      {
        title: 'Versuchen, sie zu starten',
        lines: [
          'Drücken Sie die Starttaste. Es darf nichts passieren.',
          'Prüfen Sie die Spannung auf der Maschinenseite des Schalters mit einem Prüfer, den Sie an einer ' +
            'Spannungsquelle getestet haben.',
          'Erst jetzt ist die Maschine sicher.',
          'Stellen Sie den Startschalter wieder auf Aus.',
        ],
      },
    ],
  },
  {
    key: 'forklift-hose',
    langid: 'de',
    title: 'Hydraulikschlauch am Hubmast eines Gabelstaplers ersetzen',
    summary:
      'Einen undichten Hubzylinderschlauch am Mast eines Gegengewichtsstaplers ersetzen, ohne den ' +
      'Gabelträger fallen zu lassen.',
    intro:
      'Mastschläuche biegen sich bei jeder Bewegung des Gabelträgers und reißen irgendwann an den verpressten Enden. ' +
      'Die Arbeit selbst ist einfach, sie sicher zu tun nicht: Der Gabelträger muss **abgestützt** sein, ' +
      'nicht von der Hydraulik gehalten.',
    steps: [
      {
        title: 'Abstellen und Gabeln absenken',
        lines: [
          'Auf ebenem Boden parken, Feststellbremse ziehen und die Gabeln ganz absenken.',
          'Ausschalten und den Schlüssel abziehen.',
        ],
      },
      {
        title: 'Den Gabelträger abstützen',
        lines: [
          'Wenn der Schlauch die Hubzylinder speist, heben Sie den Gabelträger etwa 30 cm an und stellen Sie ' +
            'Böcke darunter.',
          'Senken Sie den Gabelträger auf die Böcke, bis die Ketten durchhängen.',
          'Arbeiten Sie nie unter einem Gabelträger, den nur die Hydraulik hält.',
        ],
      },
      {
        title: 'Den Systemdruck abbauen',
        lines: [
          'Bewegen Sie bei abgestelltem Motor und eingeschalteter Zündung jeden Hydraulikhebel zweimal über ' +
            'den ganzen Weg.',
          'Eingeschlossener Druck spritzt Öl so hart, dass es die Haut durchschneidet. Tragen Sie ab jetzt das ' +
            'Gesichtsschutzschild.',
        ],
      },
      {
        title: 'Den Stapler freischalten',
        lines: [
          'Klemmen Sie das Minuskabel der Batterie ab und hängen Sie Schloss und Anhänger daran.',
          'Schließen Sie bei Gasstaplern das Ventil der Gasflasche.',
        ],
      },
      {
        title: 'Den undichten Schlauch finden',
        lines: [
          'Reinigen Sie die Schläuche mit einem Lappen und suchen Sie frisches Öl.',
          'Die verpressten Enden und die Stellen, an denen ein Schlauch am Mast scheuert, sind die üblichen ' +
            'Verdächtigen.',
          'Markieren Sie den Verlauf des Schlauchs mit Farbe oder Klebeband, bevor Sie ihn abnehmen.',
        ],
      },
      {
        title: 'Das untere Ende lösen',
        lines: [
          'Stellen Sie die Auffangwanne unter die untere Verschraubung.',
          'Halten Sie den Adapter mit einem Überwurfmutterschlüssel und lösen Sie die Schlauchmutter mit dem anderen.',
          'Verschließen Sie den Adapter sofort.',
        ],
      },
      {
        title: 'Das obere Ende lösen',
        lines: [
          'Lösen Sie die obere Verschraubung genauso und verschließen Sie den Zylinderanschluss.',
          'Nehmen Sie die Schlauchschellen am Mast ab und ziehen Sie den Schlauch heraus.',
        ],
      },
      {
        title: 'Den neuen Schlauch vergleichen',
        lines: [
          'Legen Sie den neuen Schlauch neben den alten. Länge, Anschlüsse und Winkel müssen übereinstimmen.',
          'Ein Schlauch, der 2 cm zu kurz ist, spannt sich bei voller Hubhöhe und versagt innerhalb weniger Tage.',
        ],
      },
      {
        title: 'Den neuen Schlauch einbauen',
        lines: [
          'Verlegen Sie den neuen Schlauch entlang der Markierung und setzen Sie die Schellen locker wieder ein.',
          'Setzen Sie neue O-Ringe in die Adapter ein und ziehen Sie beide Enden handfest an.',
          'Ziehen Sie jede JIC-Mutter eine Schlüsselfläche über handfest an, während Sie den Adapter halten.',
        ],
      },
      {
        title: 'Strom anschließen und entlüften',
        lines: [
          'Schließen Sie die Batterie wieder an, öffnen Sie das Gasventil und starten Sie den Stapler.',
          'Heben Sie den Gabelträger von den Böcken und nehmen Sie sie weg.',
          'Fahren Sie den Hub fünfmal langsam bis zur vollen Höhe, um die Luft auszutreiben.',
        ],
      },
      {
        title: 'Auf Lecks prüfen und nachfüllen',
        lines: [
          'Prüfen Sie beide Verschraubungen bei voll angehobenem Gabelträger.',
          'Füllen Sie bei abgesenkten Gabeln Hydrauliköl bis zur Voll-Marke nach.',
          'Trockene Verschraubungen nach zehn vollen Hüben bedeuten: fertig.',
        ],
      },
    ],
  },
];

/** Stores the demo's translations, each step's text under its stepid. */
export function seedDemoTranslations(
  db: Db,
  content: { guides: Record<string, number>; steps: Record<string, number[]> },
): void {
  for (const translation of DEMO_TRANSLATIONS) {
    const guideid = content.guides[translation.key];
    const stepids = content.steps[translation.key];
    if (guideid === undefined || !stepids) throw new Error(`Demo translation of an unknown guide: ${translation.key}`);
    const steps = Object.fromEntries(translation.steps.map((step, index) => [stepids[index]!, step]));
    insertTranslation(db, {
      guideid,
      langid: translation.langid,
      title: translation.title,
      summary: translation.summary,
      introduction_raw: translation.intro,
      steps,
    });
  }
}
