import { describe, expect, it } from "vitest";
import { readMail } from "../../src/mine/mail/index.js";

const body = "Your parcel 4471 left the depot and arrives on Friday.";

describe("readMail: greetings and closings in more languages", () => {
  it.each([
    ["Polish", "Dzień dobry,", "Pozdrawiam,\nTomasz"],
    ["Polish, formal", "Szanowna Pani,", "Z poważaniem,\nTomasz"],
    ["Czech", "Dobrý den,", "S pozdravem,\nTomáš"],
    ["Danish", "Kære Anna,", "Venlig hilsen\nTom"],
    ["Norwegian", "Hei Anna,", "Med vennlig hilsen\nTom"],
    ["Finnish", "Hei Anna,", "Ystävällisin terveisin,\nTom"],
    ["Turkish", "Merhaba Ayşe,", "Saygılarımla,\nTolga"],
    ["Romanian", "Bună ziua,", "Cu stimă,\nToma"],
    ["Hungarian", "Kedves Anna!", "Üdvözlettel,\nTamás"],
    ["Greek", "Αγαπητή Άννα,", "Με εκτίμηση,\nΘωμάς"],
    ["Russian, the name after the comma", "Здравствуйте, Анна!", "С уважением,\nТом"],
    ["English, the name after the comma", "Hello, Ann!", "Talk soon,\nTom"],
  ])("%s", (_language, greeting, closing) => {
    const mail = readMail(`${greeting}\n${body}\n\n${closing}`);
    expect(mail.body).toBe(body);
    expect(mail.greeting).toBe(greeting);
    expect(mail.closing).toBe(closing.split("\n")[0]);
  });

  it("words after a greeting's comma that are not a name stay in the body", () => {
    expect(readMail(`Hi, thanks for your order\n${body}`).body).toBe(`thanks for your order\n${body}`);
    expect(readMail(`Hello, we shipped it today.\n${body}`).body).toBe(`we shipped it today.\n${body}`);
  });
});

describe("readMail: lines a phone adds, in more languages", () => {
  it.each([
    "Wysłane z iPhone'a",
    "Wysłano z mojego iPhone",
    "Odesláno z iPhonu",
    "Lähetetty iPhonesta",
    "Trimis de pe iPhone",
    "Отправлено с iPhone",
    "Στάλθηκε από το iPhone μου",
  ])("%s", (line) => {
    const mail = readMail(`Hi Ann,\n${body}\n\n${line}`);
    expect(mail.body).toBe(body);
    expect(mail.signature).toBe(true);
  });
});

describe("readMail: earlier messages not marked line by line, in more languages", () => {
  it.each([
    [
      "Czech Outlook",
      "Od: Anna Nováková <anna@x.example>\nOdesláno: pondělí 2. března 2026 10:12\nKomu: Obchod <shop@x.example>\nPředmět: Objednávka",
    ],
    [
      "Finnish Outlook",
      "Lähettäjä: Anna Virtanen <anna@x.example>\nLähetetty: maanantai 2. maaliskuuta 2026 10.12\nVastaanottaja: Kauppa <shop@x.example>\nAihe: Tilaus",
    ],
    [
      "Turkish Outlook",
      "Kimden: Ayşe Yılmaz <ayse@x.example>\nGönderildi: 2 Mart 2026 Pazartesi 10:12\nKime: Mağaza <shop@x.example>\nKonu: Sipariş",
    ],
    ["Czech Gmail", "po 2. 3. 2026 v 10:12 odesílatel Anna Nováková <anna@x.example> napsal:"],
    ["Turkish Gmail", "Ayşe Yılmaz <ayse@x.example>, 2 Mar 2026 Pzt, 10:12 tarihinde şunu yazdı:"],
    ["Hungarian Gmail", "Anna Kovács <anna@x.example> ezt írta (időpont: 2026. márc. 2., H, 10:12):"],
    ["Romanian Gmail", "Pe lun., 2 mar. 2026 la 10:12, Ana Popescu <ana@x.example> a scris:"],
    [
      "a client whose verb is not known: the date, the time and the address",
      "пн, 2 мар. 2026 г. в 10:12, Анна <anna@x.example>:",
    ],
    ["one that writes no verb", "2026年3月2日(月) 10:12 Anna <anna@x.example>:"],
  ])("%s", (_client, header) => {
    const mail = readMail(`Hi Ann,\n${body}\n\nBest,\nTom\n\n${header}\n\nWhere is it?\nThanks, Ann\n`);
    expect(mail.body).toBe(body);
    expect(mail.quoted).toBe(true);
  });

  it("a sentence of the message with an address and a time is not an attribution", () => {
    const text = `Hi Ann,\n${body}\nWrite to <desk@x.example> before 10:30:\nwe answer the same day.`;
    expect(readMail(text).body).toBe(
      `${body}\nWrite to <desk@x.example> before 10:30:\nwe answer the same day.`,
    );
  });
});
