import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineKey, readMail } from "../../src/mine/mail/index.js";
import { hostileStrings } from "../../src/testing/index.js";

const body = "The replacement ships on Friday.";

describe("readMail: earlier messages", () => {
  it.each([
    [
      "On … wrote: (Gmail)",
      "On Tue, Mar 3, 2026 at 10:00 AM Anna Schmidt <anna@x.example> wrote:\n> Where is it?",
    ],
    [
      "wrapped inside the address",
      "On Tue, Mar 3, 2026 at 10:00 AM Anna Schmidt <\nanna@x.example> wrote:\n\n> Where?",
    ],
    [
      "wrapped before the verb",
      "On Tue, Mar 3, 2026 at 10:00 AM Anna Schmidt\n<anna@x.example> wrote:\n> Where?",
    ],
    ["German Gmail", "Am Di., 3. März 2026 um 10:00 Uhr schrieb Anna Schmidt <anna@x.example>:\n> Wo?"],
    [
      "German Apple Mail, quoted",
      "> Am 03.03.2026 um 10:00 schrieb Anna Schmidt <anna@x.example>:\n> \n> Wo?",
    ],
    [
      "German, not marked line by line",
      "Am 03.03.2026 um 10:00 schrieb Anna Schmidt <anna@x.example>:\n\nWo ist mein Paket?",
    ],
    ["Thunderbird, German", "Anna Schmidt schrieb am 03.03.2026 um 10:00:\n> Wo?"],
    ["Thunderbird, English", "On 03/03/2026 10:00, Anna Schmidt wrote:\n> Where?"],
    ["French", "Le mar. 3 mars 2026 à 10:00, Anna Schmidt <anna@x.example> a écrit :\n> Où ?"],
    [
      "French, no-break spaces",
      "Le mar. 3 mars 2026 à 10:00, Anna <anna@x.example> a\u00a0écrit\u00a0:\n> Où ?",
    ],
    ["French, wrapped", "Le mar. 3 mars 2026 à 10:00, Anna <anna@x.example> a\nécrit :\n> Où ?"],
    ["Spanish", "El mar, 3 mar 2026 a las 10:00, Anna Schmidt (<anna@x.example>) escribió:\n> ¿Dónde?"],
    ["Dutch", "Op di 3 mrt. 2026 om 10:00 schreef Anna Schmidt <anna@x.example>:\n> Waar?"],
    ["Italian", "Il giorno mar 3 mar 2026 alle ore 10:00 Anna Schmidt <anna@x.example> ha scritto:\n> Dove?"],
    ["Portuguese", "Em ter., 3 de mar. de 2026 às 10:00, Anna Schmidt <anna@x.example> escreveu:\n> Onde?"],
    ["Swedish", "Den tis 3 mars 2026 kl 10:00 skrev Anna Schmidt <anna@x.example>:\n> Var?"],
    ["a name alone above quoted lines", "Anna wrote:\n> Where?"],
    ["Yahoo", "On Tuesday, March 3, 2026, 10:00:00 AM GMT+1, Anna <anna@x.example> wrote:\n\n\n> Where?"],
    ["Polish", "W dniu 3.03.2026 o 10:00, Anna <a@x.example> pisze:\n> Gdzie?"],
    ["Russian, verb with a bracket", "3 марта 2026 г., в 10:00, Anna <a@x.example> написал(а):\n> Где?"],
    ["webmail, English", "Quoting Anna Schmidt <anna@x.example>:\n\n> Where?"],
    ["webmail, German", "Zitat von Anna Schmidt <anna@x.example>:\n\n> Wo?"],
    ["French, no address, not marked", "Le 3 mars 2026 à 10:00, Anna a écrit :\nOù est mon colis ?"],
    [
      "header block on one line",
      "From: Anna <a@x.example> Sent: Tuesday, March 3 To: Support Subject: Where\n\nWhere?",
    ],
    [
      "Outlook",
      "-----Original Message-----\nFrom: Anna\nSent: Tuesday, March 3, 2026\nTo: Support\nSubject: Where\n\nWhere?",
    ],
    [
      "Outlook, German",
      "-----Ursprüngliche Nachricht-----\nVon: Anna\nGesendet: Dienstag\nAn: Support\nBetreff: Wo\n\nWo?",
    ],
    [
      "Thunderbird forward, German",
      "-------- Original-Nachricht --------\nBetreff: Wo\nDatum: 03.03.2026\nVon: Anna\n\nWo?",
    ],
    [
      "Outlook web",
      "________________________________\nFrom: Anna <anna@x.example>\nSent: Tuesday\nTo: Support\n\nWhere?",
    ],
    [
      "header block, French",
      "De : Anna Schmidt\nEnvoyé : mardi 3 mars 2026\nÀ : Support\nObjet : Où\n\nOù ?",
    ],
    [
      "header block, Spanish",
      "De: Anna\nEnviado el: martes, 3 de marzo de 2026\nPara: Soporte\nAsunto: Dónde\n\n¿Dónde?",
    ],
    [
      "header block, Dutch",
      "Van: Anna\nVerzonden: dinsdag 3 maart 2026\nAan: Support\nOnderwerp: Waar\n\nWaar?",
    ],
    ["header block, Italian", "Da: Anna\nInviato: martedì 3 marzo 2026\nA: Supporto\nOggetto: Dove\n\nDove?"],
    [
      "header block, bold",
      "*From:* Anna <anna@x.example>\n*Sent:* Tuesday\n*To:* Support\n*Subject:* Where\n\nWhere?",
    ],
    ["Gmail forward", "---------- Forwarded message ---------\nFrom: Anna\nDate: Tue, Mar 3, 2026\n\nWhere?"],
    ["Apple forward", "Begin forwarded message:\n\nFrom: Anna\nSubject: Where\n\nWhere?"],
    ["Apple forward, German", "Anfang der weitergeleiteten Nachricht:\n\nVon: Anna\nBetreff: Wo\n\nWo?"],
    ["forward, French", "-------- Message transféré --------\nSujet : Où\n\nOù ?"],
    ["forward, Spanish", "---------- Mensaje reenviado ---------\nDe: Anna\n\n¿Dónde?"],
    ["pipe markers", "| Where is it?\n| Anna"],
    [
      "nested quotes",
      "On Tue, 3 Mar 2026, Tom <t@x.example> wrote:\n> Sure.\n> On Mon, 2 Mar, Anna <a@x.example> wrote:\n> > Where?\n>> Really?",
    ],
  ])("%s is cut off", (_form, earlier) => {
    const read = readMail(`${body}\n\n${earlier}`);
    expect(read).toMatchObject({ body, quoted: true });
  });

  it("keeps the writer's answers between quoted lines", () => {
    expect(readMail(`> Where is it?\n${body}\n> And when?\nOn Friday.`)).toMatchObject({
      body: `${body}\nOn Friday.`,
      quoted: true,
    });
  });

  it("reads the greeting and closing above a quoted message in another language", () => {
    const mail = [
      "Hallo Frau Berg,",
      "",
      "Ihr Paket ist unterwegs.",
      "",
      "Viele Grüße",
      "Jonas Weber",
      "",
      "Le mar. 3 mars 2026 à 10:00, Marie <marie@x.example> a écrit :",
      "> Bonjour,",
      "> Am 02.03.2026 schrieb Jonas <j@x.example>:",
      "> > Hi Marie,",
    ].join("\n");
    expect(readMail(mail)).toEqual({
      body: "Ihr Paket ist unterwegs.",
      greeting: "Hallo Frau Berg,",
      closing: "Viele Grüße",
      quoted: true,
      signature: false,
    });
  });
});

describe("readMail: signatures", () => {
  it.each([
    ["delimiter", "-- \nTom Berg\nAcme"],
    ["delimiter without its space", "--\nTom Berg\nAcme"],
    ["iPhone, English", "Sent from my iPhone"],
    ["iPhone, German", "Von meinem iPhone gesendet"],
    ["iPhone, German, other order", "Gesendet von meinem iPhone"],
    ["iPhone, French", "Envoyé de mon iPhone"],
    ["iPhone, Spanish", "Enviado desde mi iPhone"],
    ["iPhone, Italian", "Inviato da iPhone"],
    ["iPhone, Dutch", "Verstuurd vanaf mijn iPhone"],
    ["iPhone, Swedish", "Skickat från min iPhone"],
    ["iPhone, in capitals", "SENT FROM MY IPHONE"],
    ["iPhone, with a Kelvin sign for the k", "S\u212aickat från min iPhone"],
    ["Outlook mobile", "Get Outlook for Android"],
    ["Outlook mobile, German", "Von Outlook für iOS gesendet"],
    ["Outlook mobile, French", "Envoyé à partir de Outlook pour Android"],
    ["a device line ending with a dot", "Sent from my Samsung Galaxy smartphone."],
    ["a block of contact lines", "Tom Berg\nHead of Support\n+49 30 1234567\nwww.acme.example"],
    [
      "closing, then contact lines",
      "Best regards,\nTom Berg | Acme GmbH\nT: +49 30 1234567 | tom@acme.example",
    ],
    [
      "closing, name, title",
      "Mit freundlichen Grüßen\n\nTom Berg\nTeamleiter Kundenservice\nAcme GmbH\nTel.: 030 1234567",
    ],
    [
      "closing, then a contact block",
      "Kind regards\nAnna\n\nAcme GmbH | Hauptstr. 5 | Berlin\n+49 30 1234567",
    ],
  ])("%s is cut off", (_form, signature) => {
    expect(readMail(`${body}\n\n${signature}`)).toMatchObject({ body, signature: true, quoted: false });
  });
});

describe("readMail: greetings and closings", () => {
  it.each([
    "Hi Anna,",
    "Hello,",
    "Hello Anna",
    "Hi there",
    "Dear Mr. Berg,",
    "Dear Sir or Madam",
    "Good morning Anna,",
    "Hey Anna!",
    "Hi Anna -",
    "Hallo Anna,",
    "Liebe Anna,",
    "Lieber Tom,",
    "Liebe/r Katrin,",
    "Sehr geehrte*r Kund*in,",
    "Sehr geehrte Frau Berg,",
    "Sehr geehrte Damen und Herren,",
    "Guten Tag Herr Berg,",
    "Moin Tom,",
    "Bonjour Anna,",
    "Madame, Monsieur,",
    "Hola Ana,",
    "Buenos días,",
    "Estimado Sr. García:",
    "Beste Anna,",
    "Geachte heer Berg,",
    "Ciao Anna,",
    "Buongiorno,",
    "Olá Ana,",
  ])("greeting %s", (greeting) => {
    expect(readMail(`${greeting}\n${body}`)).toMatchObject({ greeting, body });
  });

  it("cuts a greeting that opens the first sentence", () => {
    expect(readMail(`Dear Blue Fern, ${body}`)).toMatchObject({ greeting: "Dear Blue Fern,", body });
    expect(readMail(`Hi, ${body}`)).toMatchObject({ greeting: "Hi,", body });
  });

  it.each([
    "Best regards,",
    "Kind regards,",
    "Regards",
    "Best,",
    "Thanks,",
    "Thanks!",
    "Thank you!",
    "Many thanks,",
    "Cheers",
    "Cheers, Sam",
    "Sincerely,",
    "Viele Grüße",
    "Mit freundlichen Grüßen",
    "Beste Grüße,",
    "Liebe Grüße aus Berlin",
    "LG",
    "Cordialement,",
    "Bien cordialement",
    "Merci !",
    "Saludos",
    "Un saludo,",
    "Gracias,",
    "Met vriendelijke groet,",
    "Cordiali saluti",
    "Atenciosamente,",
    "Danke und Gruß",
    "Thanks & regards,",
  ])("closing %s, with the name under it", (closing) => {
    expect(readMail(`Hi,\n${body}\n\n${closing}\nTom`)).toMatchObject({ closing, body, signature: false });
  });

  it("reads only closings above a closing: a short line of text above one stays", () => {
    expect(readMail("Hi,\nThanks!\nThe parcel left today\n\nCheers,\nTom")).toMatchObject({
      body: "Thanks!\nThe parcel left today",
      closing: "Cheers,",
    });
    expect(readMail(`${body}\n\nThanks again!\nBest regards,\nTom`)).toMatchObject({
      body,
      closing: "Thanks again!",
    });
  });

  it("reads a one-word closing with a name and no mark only on the last line", () => {
    expect(readMail(`${body}\n\nGruß Tobias Kern`)).toMatchObject({ body, closing: "Gruß Tobias Kern" });
    expect(readMail(`${body}\n\nLG Jana`)).toMatchObject({ body, closing: "LG Jana" });
    const text = `${body}\nBest Western Hotel\nThe room is booked for two nights.`;
    expect(readMail(text)).toMatchObject({ body: text, closing: undefined });
  });

  it("reads a line as a closing by where it stands, however often it was read elsewhere", () => {
    // A one-word closing with a name and no mark is one only as the last line.
    const under = `${body}\n\nGruß Wilma Brandt\nAnna`;
    for (let round = 0; round < 2; round++) {
      expect(readMail(`${body}\n\nGruß Wilma Brandt`)).toMatchObject({ body, closing: "Gruß Wilma Brandt" });
      expect(readMail(under)).toMatchObject({ body: under, closing: undefined });
    }
    const over = `${body}\n\nLG Mira\nAnna`;
    for (let round = 0; round < 2; round++) {
      expect(readMail(over)).toMatchObject({ body: over, closing: undefined });
      expect(readMail(`${body}\n\nLG Mira`)).toMatchObject({ body, closing: "LG Mira" });
    }
  });

  it("reads the same first line with the same greeting each time", () => {
    for (let round = 0; round < 3; round++) {
      expect(readMail(`Hallo Wilma, ${body}`)).toMatchObject({ greeting: "Hallo Wilma,", body });
      expect(readMail(`Hallo Wilma,\n${body}`)).toMatchObject({ greeting: "Hallo Wilma,", body });
      expect(readMail(`Hallo Wilma`)).toMatchObject({ greeting: "Hallo Wilma", body: "" });
    }
  });

  it("reads a long first line's greeting each time without keeping the line", () => {
    const long = `Hallo Wilma, ${"the parcel was handed to the courier this morning and ".repeat(8)}`.trim();
    for (let round = 0; round < 2; round++)
      expect(readMail(long)).toMatchObject({
        greeting: "Hallo Wilma,",
        body: long.slice("Hallo Wilma, ".length),
      });
  });

  it("cuts a closing that ends the last line", () => {
    expect(readMail(`${body} Best regards, Team`)).toMatchObject({ body, closing: "Best regards, Team" });
    expect(readMail(`Hi, could you check order 1234? Thanks!`)).toMatchObject({
      greeting: "Hi,",
      body: "could you check order 1234?",
      closing: "Thanks!",
    });
  });

  it.each([
    "Morning deliveries are late this week.",
    "Best price we could find is attached.",
    "Thanks to the carrier, the parcel arrived early.",
    "Thanks, we refunded it.",
    "Thank you for your order 4471.",
    "Hi-fi equipment ships separately.",
    "History shows no earlier order.",
    "The customer wrote: the box was wet.",
    "From: the warehouse in Leipzig",
    "Dear customers are always welcome.",
    "On Monday we will call you.",
    "Please reply > 5 days before the date.",
    "| size | price |",
    "Sent from our warehouse this morning.",
  ])("keeps the text %s", (line) => {
    const text = `${line}\n${body}\n${line}`;
    expect(readMail(text)).toEqual({
      body: text,
      greeting: undefined,
      closing: undefined,
      quoted: false,
      signature: false,
    });
  });

  it("reads a bare -- as a rule when a sentence follows it", () => {
    const text = `Order 4471:\n--\n${body}\nThe tracking number follows by mail.`;
    expect(readMail(text)).toMatchObject({ body: text, signature: false });
  });
});

describe("readMail on hostile input", () => {
  const long = 20_000;
  it.each([
    [">".repeat(long)],
    ["> ".repeat(long / 2)],
    ["\n".repeat(long)],
    ["\n>".repeat(long / 2)],
    ["On Tue, 3 Mar 2026 Anna <a@x.example> wrote: ".repeat(long / 45)],
    ["On Tue Anna <\n".repeat(long / 14)],
    ["Anna wrote:\n".repeat(long / 12)],
    ["From: a\nSent: b\n".repeat(long / 16)],
    ["-- \n".repeat(long / 4)],
    ["-".repeat(long)],
    ["_".repeat(long)],
    ["Thanks,\n".repeat(long / 8)],
    ["Hi, ".repeat(long / 4)],
    [`${".".repeat(long)}a`],
    ["Sent from my iPhone\n".repeat(long / 20)],
    ["a@".repeat(long / 2)],
    ["\r\n\r".repeat(long / 3)],
    ["\u2028>\u2029".repeat(long / 3)],
  ])("reads %# without throwing, cutting only what it was given", (text) => {
    const read = readMail(text);
    expect(text).toContain(read.body.split("\n")[0] ?? "");
    expect(read.body.length).toBeLessThanOrEqual(text.length);
  });

  it("never throws, and every line of the body is a line of the text", () => {
    for (const text of hostileStrings) expect(() => readMail(text)).not.toThrow();
    expect(readMail(undefined as unknown as string)).toMatchObject({ body: "" });
    const pieces = fc.constantFrom(
      "> ",
      ">",
      "|",
      "\n",
      " ",
      "Hi Anna,",
      "Best regards,",
      "-- ",
      "On Tue, 3 Mar 2026, Anna <a@x.example> wrote:",
      "Am 03.03.2026 schrieb Anna:",
      "From: a",
      "Sent: b",
      "To: c",
      "-----Original Message-----",
      "Sent from my iPhone",
      "+49 30 1234567",
      "the parcel left today.",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 12 })), { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        const read = readMail(text);
        const lines = new Set(text.split(/\r\n|\r|\n|\u2028|\u2029/).map((line) => line.trim()));
        for (const line of read.body.split("\n").slice(1, -1)) expect(lines).toContain(line.trim());
        if (read.greeting !== undefined) expect(text).toContain(read.greeting);
        if (read.closing !== undefined) expect(text).toContain(read.closing);
      }),
    );
  });
});

describe("lineKey", () => {
  it("counts a team line as the same line whatever its numbers, case and punctuation", () => {
    expect(lineKey("> Your Acme team · +49 30 1234-567")).toBe(lineKey("your ACME team, +49 (40) 7654-321"));
    expect(lineKey("Call 0800 123")).not.toBe(lineKey("Mail 0800 123"));
    expect(lineKey("Bestellung ٤٤٧١")).toBe(lineKey("Bestellung 4471"));
    expect(lineKey("x".repeat(50_000))).toHaveLength(200);
  });
});
