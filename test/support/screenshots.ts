// The web app's screenshots in docs/screenshots/ (issue 29): `npx tsx test/support/screenshots.ts`.
// The real API in-process on port 0 over a seeded SQLite store in a temp dir, the fake player on
// loopback in the transcript page's frame, and Debian's Chromium through Playwright photographing
// every page at a phone's and a desktop's width, light and dark. Each of the four variants signs in
// with its own key following the same things, so the subscription upload answers the same table in
// every one (a fresh import, not "already" from the variant before).

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright';
import { defaultSummaryKey } from '../../api/feed/summaries';
import { sha256 } from '../../shared/config/security';
import type { TranscriptRecord, VideoRecord } from '../../shared/store/types';
import { launchChromium, signedInContext } from '../api/webapp-browser';
import { startApi, type TestApi } from '../api/support';
import { startFakeEmbed } from './fake-embed';
import { videoRecord } from './factories';

const OUT = path.join(__dirname, '..', '..', 'docs', 'screenshots');
const NOW = new Date(Date.UTC(2026, 2, 14, 9, 30, 0));
const DAY = 86_400_000;

const VARIANTS = [
  { name: 'phone-light', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
  { name: 'phone-dark', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
  { name: 'desktop-light', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { name: 'desktop-dark', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
] as const;
const keyOf = (variant: string): string => `screenshots-${variant}-key-0001`;

const SCIENCE = 'UCq7Bn2Hh8XvTgT0mKc3LwAa';
const WORKSHOP = 'UCw0rKsh0pH0urV1d30sABcd';
const KITCHEN = 'UCk1tch3nT4bl3Tr0000xyZ_';
const NEW_ONE = 'UCn3wCh4nn3lW4it1ngF0rIt';
const PLAYLIST = 'PLh34tPumpsSt4rtT0F1n1sh';
const MAIN_VIDEO = 'hP7kQ2xLm0A';

const CHAPTERS = ['0:00 Why a heat pump at all', '2:10 Moving heat, not making it', '6:45 The refrigerant loop', '11:30 Sizing for a cold winter', '17:05 Running costs, measured', '22:40 What I would do differently'];
const ENGLISH = [
  'Hi, and welcome back to the workshop. Today is the one many of you asked for: a year with a heat pump in a 1930s brick house.',
  'Before anything else, the short answer: yes, it kept the house warm, and yes, it cost less than the gas boiler it replaced.',
  'But the details matter, so let us go through them one by one, starting with what a heat pump actually does.',
  'A boiler burns fuel to make heat. A heat pump does not make heat at all; it moves heat that is already there from outside to inside.',
  'Even air at minus five degrees holds a lot of heat. The trick is to collect it at a low temperature and release it at a higher one.',
  'That is the same thing your fridge does, just pointed the other way: the fridge pumps heat out of the box into your kitchen.',
  'The ratio of heat delivered to electricity used is the coefficient of performance, and over the year ours averaged a little over three.',
  'So every kilowatt-hour from the grid came out as about three kilowatt-hours of warmth in the radiators.',
  'Now the refrigerant loop. A fan pulls outside air across a coil where the refrigerant evaporates and takes up heat.',
  'The compressor squeezes that vapour, which raises its temperature well above what the radiators need.',
  'Inside, the hot refrigerant condenses in a plate heat exchanger and hands its heat to the water of the heating circuit.',
  'An expansion valve drops the pressure again, the refrigerant cools right down, and the loop starts over.',
  'Every step of that loop is old technology. What changed in the last ten years is the inverter compressor, which can run slowly for hours.',
  'Running slowly is the whole secret. A heat pump that cycles on and off all day is a heat pump that was sized badly.',
  'Which brings us to sizing. We did a room-by-room heat loss calculation instead of copying the old boiler\'s rating.',
  'The old boiler was 24 kilowatts. The calculation said the house needs 7.5 kilowatts on the coldest design day.',
  'We went with an 8 kilowatt unit, and on the coldest night of the winter, minus eleven, it ran flat out and held the house at twenty degrees.',
  'Three radiators had to be replaced with larger ones, because a heat pump is most efficient with water at forty-five degrees, not seventy.',
  'Those were the living room, the back bedroom and the bathroom, and that was most of the plumbing work.',
  'Insulation came first, though: loft insulation topped up to 300 millimetres, and the gaps around the old windows sealed.',
  'That alone cut the heat loss by about a fifth, and it is the cheapest thing in this whole video.',
  'Now the numbers everyone wants. From March to March the heat pump used 4,100 kilowatt-hours of electricity.',
  'The year before, the boiler used 14,600 kilowatt-hours of gas for roughly the same comfort.',
  'At our tariffs that is a saving of a little under a third, and more since we moved to a time-of-use tariff in the autumn.',
  'Hot water is the weak spot. Heating the cylinder to fifty-five degrees drops the efficiency to about two and a half.',
  'Once a week the controller heats it to sixty for legionella protection, and you can see those days clearly in the data.',
  'Noise was my biggest worry and turned out to be a non-issue. At one metre it is quieter than the fridge in the kitchen.',
  'Defrosting is the other thing people ask about. On damp days near zero it defrosts every hour or so, for about three minutes.',
  'You see a cloud of steam from the outdoor unit, which alarmed our neighbours exactly once.',
  'So what would I do differently? First, I would have insulated the floor of the back room before sizing anything.',
  'Second, I would have put in a bigger hot water cylinder, so it can heat in the cheap hours and coast through the evening.',
  'Third, I would have fitted the heat meter from day one. Without it you are guessing your efficiency.',
  'And last, I would not have waited so long. The house is more comfortable than it ever was with the boiler.',
  'All the data, the heat loss spreadsheet and the radiator list are linked in the description.',
  'Next time: the same house with solar panels on the roof. Thanks for watching, and see you then.',
];
const TURKISH = [
  'Merhaba, atölyeye tekrar hoş geldiniz. Bugün çoğunuzun istediği konu: 1930\'lardan kalma tuğla bir evde ısı pompasıyla bir yıl.',
  'Önce kısa cevap: evet, evi sıcak tuttu ve evet, yerine geçtiği doğalgaz kazanından daha ucuza geldi.',
  'Bir kazan ısı üretmek için yakıt yakar. Isı pompası ise ısı üretmez; zaten var olan ısıyı dışarıdan içeriye taşır.',
  'Eksi beş derecedeki hava bile çok ısı taşır. İşin sırrı onu düşük sıcaklıkta toplayıp daha yüksek sıcaklıkta bırakmaktır.',
  'Yıl boyunca ortalama performans katsayımız üçün biraz üzerindeydi.',
  'Şebekeden gelen her kilovatsaat, radyatörlerde yaklaşık üç kilovatsaat ısıya dönüştü.',
];

function paragraphs(texts: readonly string[], chapterSeconds: readonly number[], total: number): TranscriptRecord['paragraphs'] {
  // Spread the paragraphs over the video, each chapter's first one at the chapter's second.
  const step = total / texts.length;
  return texts.map((text, i) => {
    const at = Math.round(i * step);
    const chapter = chapterSeconds.find((s) => s >= at && s < at + step);
    return { startMs: (chapter ?? at) * 1000, text };
  });
}

async function seed(api: TestApi): Promise<void> {
  const { store } = api;
  const at = (daysAgo: number, hour = 17): Date => new Date(NOW.getTime() - daysAgo * DAY + (hour - 9) * 3_600_000);
  const v = (over: Partial<VideoRecord> & Pick<VideoRecord, 'videoId' | 'channelId' | 'title'>): VideoRecord =>
    videoRecord({ fetchedAt: NOW, publishedAt: at(1), durationSeconds: 900, description: null, ...over });
  for (const [channelId, title] of [[SCIENCE, 'Deniz Kıyısı Bilim'], [WORKSHOP, 'The Workshop Hour'], [KITCHEN, 'Kitchen Table Physics']] as const) {
    await store.registerChannel({ channelId, wanted: 50, title }, NOW);
    await store.nameChannel(channelId, title);
  }
  const seconds = CHAPTERS.map((c) => c.split(' ')[0]!.split(':').reduce((m, s) => m * 60 + Number(s), 0));
  const main = v({
    videoId: MAIN_VIDEO, channelId: WORKSHOP, title: 'A year with a heat pump in a 1930s brick house: what it cost', publishedAt: at(2),
    durationSeconds: 1689, offeredLanguages: ['en', 'tr', 'de'],
    description: ['Twelve months of data from one house, the good and the bad.', '', ...CHAPTERS].join('\n'),
  });
  const workshop = [
    v({ videoId: 'wKs0000002a', channelId: WORKSHOP, title: 'Bleeding radiators the right way (and why it matters for heat pumps)', publishedAt: at(9), durationSeconds: 642 }),
    v({ videoId: 'wKs0000003b', channelId: WORKSHOP, title: 'Loft insulation: 100 mm vs 300 mm, measured with a thermal camera', publishedAt: at(16), durationSeconds: 1104 }),
    v({ videoId: 'wKs0000004c', channelId: WORKSHOP, title: 'Live Q&A: your heat pump questions', publishedAt: at(23), durationSeconds: 3720, state: 'no_transcript', language: null, kind: null, nextAttemptAt: null }),
    v({ videoId: 'wKs0000005d', channelId: WORKSHOP, title: 'Fitting a heat meter to an existing system', publishedAt: at(30), durationSeconds: 877, language: 'en', kind: 'automatic' }),
    v({ videoId: 'wKs0000006e', channelId: WORKSHOP, title: 'Draught-proofing sash windows in an afternoon', publishedAt: at(37), durationSeconds: 1310 }),
  ];
  const science = [
    v({ videoId: 'sCi0000001a', channelId: SCIENCE, title: 'Isı pompası nasıl çalışır? Buzdolabını ters çevirmek', publishedAt: at(1, 20), durationSeconds: 754, language: 'tr' }),
    v({ videoId: 'sCi0000002b', channelId: SCIENCE, title: 'Karadeniz neden bu kadar tuzlu değil?', publishedAt: at(8), durationSeconds: 1021, language: 'tr' }),
  ];
  const kitchen = [
    v({ videoId: 'kTp0000001a', channelId: KITCHEN, title: 'Why a kettle is louder just before it boils', publishedAt: at(4), durationSeconds: 498 }),
    v({ videoId: 'kTp0000002b', channelId: KITCHEN, title: 'The physics of a perfect heat pump… in your fridge', publishedAt: at(12), durationSeconds: 731 }),
  ];
  const text = (video: VideoRecord, lines: readonly string[]): TranscriptRecord =>
    ({ videoId: video.videoId, language: video.language ?? 'en', kind: video.kind ?? 'manual', paragraphs: paragraphs(lines, [], video.durationSeconds ?? 600), fetchedAt: NOW });
  await store.upsertVideos([main, ...workshop, ...science, ...kitchen], [
    { ...text(main, ENGLISH), paragraphs: paragraphs(ENGLISH, seconds, 1689) },
    { ...text(main, TURKISH), language: 'tr', kind: 'translated', paragraphs: paragraphs(TURKISH, seconds, 1689) },
    ...workshop.filter((w) => w.state === 'ready').map((w) => text(w, [`In this one: ${w.title.toLowerCase()}.`, ...ENGLISH.slice(3, 9)])),
    text(science[0]!, TURKISH), text(science[1]!, ['Karadeniz\'in tuzluluğu okyanusların yarısı kadardır.', 'Bunun sebebi büyük nehirlerin taşıdığı tatlı sudur.']),
    ...kitchen.map((k) => text(k, [`Today: ${k.title.toLowerCase()}.`, 'A heat pump is the same machine as the fridge in your kitchen, pointed the other way.'])),
  ]);
  const summary = defaultSummaryKey();
  await store.putSummary({
    videoId: MAIN_VIDEO, language: summary.language, promptVersion: summary.promptVersion, transcriptLanguage: 'en', model: 'llama3.1',
    points: [
      { seconds: 130, text: 'A heat pump moves heat from outside air instead of burning fuel; over the year it delivered about three units of heat per unit of electricity.' },
      { seconds: 690, text: 'Sized from a room-by-room heat loss calculation: 8 kW instead of the old 24 kW boiler, with three radiators enlarged.' },
      { seconds: 1025, text: '4,100 kWh of electricity replaced 14,600 kWh of gas, a saving of just under a third.' },
    ],
    promptTokens: 4200, completionTokens: 180, madeAt: NOW,
  }, 'screenshots');
  await store.registerChannel({ channelId: PLAYLIST, kind: 'playlist', wanted: 50 }, NOW);
  await store.nameChannel(PLAYLIST, 'Heat pumps, start to finish');
  await store.putPlaylist({ playlistId: PLAYLIST, title: 'Heat pumps, start to finish', owner: 'The Workshop Hour', ownerChannelId: WORKSHOP, state: 'listed', videoIds: ['wKs0000003b', 'wKs0000002a', MAIN_VIDEO, 'wKs0000005d', 'wKs0000099z'] }, NOW);
  const keyIds = VARIANTS.map(({ name }) => {
    const digest = sha256(keyOf(name)).toString('hex');
    return api.ring.keys.find((k) => k.digest.toString('hex') === digest)!.keyId;
  });
  const follow = async (channelId: string, kind?: 'playlist'): Promise<void> => {
    for (const keyId of keyIds) await store.follow(keyId, [{ channelId, kind }], 'feed', 10, NOW);
  };
  for (const channelId of [WORKSHOP, SCIENCE, KITCHEN]) await follow(channelId);
  await follow(PLAYLIST, 'playlist');
  // Each stored channel has had its run; the platform blocked Kitchen Table Physics' last one.
  for (let claimed = await store.claimDueChannel('screenshots', 60_000, NOW); claimed !== null; claimed = await store.claimDueChannel('screenshots', 60_000, NOW)) {
    const blocked = claimed.channelId === KITCHEN;
    await store.releaseChannel(claimed.channelId, 'screenshots', { nextDueAt: new Date(NOW.getTime() + (blocked ? 95 : 60) * 60_000), outcome: blocked ? 'blocked' : 'ok', consecutiveFailures: blocked ? 1 : 0 }, NOW);
  }
  // Followed after the runs: it waits for its first batch.
  await store.registerChannel({ channelId: NEW_ONE, wanted: 50, title: 'Night Sky Notes' }, NOW);
  await follow(NEW_ONE);
}

/** The upload: two channels followed already, two new ones, one line that names no channel. */
const UPLOAD = ['https://www.youtube.com/channel/' + WORKSHOP, '@kitchentablephysics', 'UCHnyfMqiRRG1u-2MsSQLbXA', 'https://www.youtube.com/channel/UCYO_jab_esuFRV4b17AJtAw', SCIENCE, 'my favourite cooking show'].join('\n');

async function shoot(page: Page, name: string, variant: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  writeFileSync(path.join(OUT, `${name}-${variant}.png`), await page.screenshot({ type: 'png', scale: 'css', animations: 'disabled' }));
}

async function variant(browser: Browser, api: TestApi, name: string, options: BrowserContextOptions): Promise<void> {
  const anonymous = await browser.newContext(options);
  const signIn = await anonymous.newPage();
  await signIn.goto(`${api.base}/app/`);
  await shoot(signIn, 'sign-in', name);
  await anonymous.close();

  const context = await signedInContext(browser, api, keyOf(name), options);
  const page = await context.newPage();
  const visit = async (shot: string, address: string): Promise<void> => {
    await page.goto(`${api.base}${address}`);
    await shoot(page, shot, name);
  };
  await visit('home', '/app/');
  await visit('channel', `/app/channels/${WORKSHOP}`);
  await visit('playlist', `/app/playlists/${PLAYLIST}`);
  // At a chapter's second: the player seeked there and its paragraph marked, as a #t= link opens it.
  await visit('transcript', `/app/videos/${MAIN_VIDEO}#t=130`);
  await page.locator('p.now').waitFor();
  await visit('search', `/app/search?q=${encodeURIComponent('heat pump')}`);
  await page.goto(`${api.base}/app/subscriptions`);
  await page.getByLabel('Subscription file').setInputFiles({ name: 'subscriptions.txt', mimeType: 'text/plain', buffer: Buffer.from(UPLOAD) });
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('table').first().waitFor();
  // The answer's table at the top of the view, so a phone's shot shows its rows, the rejected one too.
  await page.evaluate("document.getElementById('import-result').scrollIntoView()");
  await shoot(page, 'subscriptions', name);
  await context.close();
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const embed = await startFakeEmbed();
  const keys = Object.fromEntries(VARIANTS.map((v) => [keyOf(v.name), { name: v.name, rate_limit: 1_000_000, enabled: true }]));
  const api = await startApi({ playerEmbedUrl: embed.url, keys, known: { kitchentablephysics: KITCHEN } });
  api.now = NOW;
  const browser = await launchChromium();
  try {
    await seed(api);
    for (const v of VARIANTS) await variant(browser, api, v.name, { viewport: v.viewport, colorScheme: v.colorScheme, locale: 'en-GB', timezoneId: 'UTC' });
  } finally {
    await browser.close();
    await api.close();
    await embed.close();
  }
  process.stdout.write(`screenshots written to ${OUT}\n`);
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exitCode = 1;
});
