/**
 * The words and names of the sample catalog's titles, artists and albums (issue #32 "A sample
 * catalog that looks like a real one", ADR 0121), in the languages and scripts the countries of
 * the product-rules §9 genre tree imply. Each list is in rough order of how often the word
 * appears in song titles (the most common first): the generator draws from it with a Zipf law
 * (names.ts), so "love" and "amor" are common and the tail rare, as in a real catalog.
 * Hand-written, a few dozen words a language: the default sample's whole vocabulary. The
 * benchmark catalogs add a large English word list behind the English words (names.ts
 * `benchVocabulary`).
 */
export interface Language {
  /** title words, most frequent first */
  words: readonly string[];
  given: readonly string[];
  family: readonly string[];
  /** what joins the words of a title: "" for scripts written without spaces */
  join: string;
  /** a word for "part", "live", "remix"… in titles of this language, when it has its own */
  live?: string;
}

export const LANGUAGES = {
  en: {
    words: [
      "Love", "Night", "Home", "Heart", "Light", "Time", "Dream", "Fire", "Rain", "Summer", "Blue", "Gold", "River", "Sky", "Sun", "Moon",
      "Road", "Dance", "Girl", "Baby", "Stars", "City", "Midnight", "Wild", "Forever", "Tonight", "Ocean", "Shadow", "Morning", "Hold On",
      "Run", "Free", "Lonely", "Paradise", "Echo", "Wings", "Stay", "Sweet", "Higher", "Glass", "Honey", "Velvet", "Thunder", "Neon",
      "Silver", "Coming Home", "Golden Hour", "Satellite", "Undertow", "Lullaby", "Wildfire", "Northern", "Harbour", "Lantern",
      "Salt", "Smoke", "Paper", "Static", "Porcelain", "Afterglow", "Marigold", "Meridian", "Cathedral", "Hinterland", "Tidewater",
      "Quicksilver", "Kaleidoscope", "Driftwood", "Bramble", "Solstice", "Ember", "Halcyon", "Labyrinth", "Juniper", "Wanderlust",
    ],
    given: ["James", "Maya", "Leo", "Grace", "Sam", "Ruby", "Noah", "Ella", "Jonah", "Iris", "Theo", "Nina", "Caleb", "June", "Felix", "Hazel", "Owen", "Cora"],
    family: ["Walker", "Reed", "Hayes", "Brooks", "Carter", "Bell", "Fletcher", "Quinn", "Holloway", "Ashby", "Marsh", "Pryce", "Lowell", "Whitaker", "Doyle"],
    join: " ",
  },
  es: {
    words: [
      "Amor", "Corazón", "Noche", "Vida", "Luna", "Sol", "Fuego", "Mar", "Cielo", "Baila", "Te Quiero", "Mi Tierra", "Bonita", "Sueño", "Calle",
      "Canción", "Lluvia", "Volver", "Madrugada", "Alegría", "Morena", "Caminos", "Flor", "Despacio", "Ojos Negros", "Libre", "Río",
      "Mañana", "Guitarra", "Tequila", "Paloma", "Recuerdos", "Golondrina", "Veneno", "Cumbia del Barrio", "Azúcar", "Ventana", "Silencio",
    ],
    given: ["Alejandro", "Lucía", "Mateo", "Valentina", "Diego", "Camila", "Javier", "Sofía", "Andrés", "Paula", "Tomás", "Ximena", "Rafael", "Inés"],
    family: ["García", "Fernández", "Rodríguez", "Martínez", "López", "Morales", "Herrera", "Castillo", "Vega", "Ortega", "Ramírez", "Navarro"],
    join: " ",
    live: "En Vivo",
  },
  pt: {
    words: [
      "Saudade", "Amor", "Coração", "Mar", "Samba", "Noite", "Lua", "Sol", "Menina", "Vida", "Chuva", "Carnaval", "Garota", "Bossa",
      "Saudades de Você", "Beija-Flor", "Céu", "Maré", "Caminho", "Alegria", "Cais", "Morena", "Tarde", "Violão", "Ilha", "Canção do Mar",
      "Manhã", "Janela", "Desafinado", "Estrela",
    ],
    given: ["João", "Ana", "Pedro", "Beatriz", "Lucas", "Mariana", "Gabriel", "Luísa", "Thiago", "Helena", "Caetano", "Marisa", "Djavan"],
    family: ["Silva", "Santos", "Oliveira", "Souza", "Costa", "Pereira", "Almeida", "Nascimento", "Barbosa", "Moreira", "Tavares"],
    join: " ",
    live: "Ao Vivo",
  },
  fr: {
    words: [
      "Amour", "Nuit", "Toi", "Cœur", "La Vie", "Paris", "Soleil", "Ciel", "Rêve", "Mon Amour", "Chanson", "Lune", "Pluie", "Demain",
      "Jamais", "Fleur", "La Mer", "Ensemble", "Printemps", "Étoile", "Liberté", "Bonheur", "Souvenir", "Rivage", "Mélancolie", "Valse",
      "Hirondelle", "Crépuscule", "Rue des Martyrs", "Je t'attends",
    ],
    given: ["Camille", "Louis", "Léa", "Hugo", "Manon", "Julien", "Chloé", "Antoine", "Élodie", "Mathis", "Aminata", "Moussa", "Aïcha", "Serge"],
    family: ["Martin", "Bernard", "Dubois", "Moreau", "Lefèvre", "Girard", "Fontaine", "Rousseau", "Traoré", "Koné", "Diabaté", "Ouédraogo"],
    join: " ",
    live: "En Concert",
  },
  it: {
    words: [
      "Amore", "Notte", "Cuore", "Sole", "Vita", "Bella", "Mare", "Luna", "Ciao", "Sempre", "Estate", "Stella", "Cielo", "Dolce Vita",
      "Tramonto", "Ballo", "Sogno", "Canzone", "Fiore", "Tu Sei", "Primavera", "Serenata", "Vento", "Malinconia", "Discoteca",
    ],
    given: ["Marco", "Giulia", "Luca", "Chiara", "Matteo", "Francesca", "Alessandro", "Sara", "Davide", "Elena", "Lorenzo", "Martina"],
    family: ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Conti", "De Luca"],
    join: " ",
    live: "Dal Vivo",
  },
  ht: {
    words: ["Lanmou", "Lavi", "Kè", "Lakay", "Solèy", "Lanmè", "Cheri", "Bèl", "Kompa", "Ayiti", "Fanm", "Lapli", "Zanmi", "Mwen Renmen W", "Lespwa"],
    given: ["Jean", "Marie", "Ti Paul", "Nadège", "Wyclef", "Roselyne", "Fabrice", "Mirlande", "Kervens", "Ketly"],
    family: ["Joseph", "Pierre", "Jean-Baptiste", "Louis", "Charles", "Étienne", "Dorval", "Célestin"],
    join: " ",
  },
  yo: {
    words: ["Ìfẹ́", "Ọlọ́run", "Ayọ̀", "Òru", "Ọkàn", "Ilé", "Orin", "Ọmọ", "Jó", "Ìrètí", "Àlàáfíà", "Ọ̀rẹ́", "Oòrùn", "Ẹ̀mí", "Oyin"],
    given: ["Adé", "Tèmí", "Olúwaségun", "Fúnmi", "Tunde", "Bímpé", "Kúnlé", "Yétúndé", "Dàpọ̀", "Ṣadé"],
    family: ["Adébáyọ̀", "Ọlátúnjí", "Adéyẹmí", "Ògúnlẹ́yẹ", "Akíndélé", "Bánkọ́lé", "Ọ̀ṣúnkọ̀yà"],
    join: " ",
  },
  tw: {
    words: ["Ɔdɔ", "Akwaaba", "Me Dɔ Wo", "Anigye", "Asase", "Nyame", "Ɛkɔm", "Abrabɔ", "Sika", "Ahoɔfɛ", "Anadwo", "Nsuo", "Fie", "Adwoa"],
    given: ["Kwame", "Ama", "Kofi", "Akosua", "Yaw", "Efua", "Kwabena", "Abena", "Kojo", "Adjoa"],
    family: ["Mensah", "Owusu", "Boateng", "Asante", "Osei", "Appiah", "Darko", "Amponsah", "Ofori"],
    join: " ",
  },
  wo: {
    words: ["Sopp", "Jàmm", "Yaay", "Xale", "Suñu Gox", "Ndaw", "Dëkk", "Mbalax", "Teranga", "Jërëjëf", "Ñu Dem", "Géej", "Asamaan"],
    given: ["Moussa", "Fatou", "Ousmane", "Awa", "Cheikh", "Khady", "Mamadou", "Ndèye", "Ibrahima", "Coumba"],
    family: ["Ndiaye", "Diop", "Fall", "Sow", "Sarr", "Mbaye", "Faye", "Cissé", "Kouyaté", "Camara"],
    join: " ",
  },
  zu: {
    words: ["Uthando", "Ubuntu", "Ikhaya", "Inhliziyo", "Ilanga", "Ngiyabonga", "Thula", "Jabula", "Umoya", "Izulu", "Inkanyezi", "Sawubona", "Lala Kahle"],
    given: ["Thabo", "Nomsa", "Sipho", "Lerato", "Mandla", "Zanele", "Bongani", "Palesa", "Themba", "Mpho", "Naledi", "Tumelo"],
    family: ["Dlamini", "Nkosi", "Mokoena", "Ndlovu", "Khumalo", "Mthembu", "Molefe", "Mahlangu", "Letsie", "Mofokeng"],
    join: " ",
  },
  sn: {
    words: ["Rudo", "Mwari", "Kumusha", "Moyo", "Mvura", "Zuva", "Tatenda", "Ndinokuda", "Mbira", "Chiedza", "Usiku", "Rufaro", "Shungu"],
    given: ["Tendai", "Rutendo", "Tafadzwa", "Chipo", "Farai", "Nyasha", "Mulenga", "Chanda", "Mwansa", "Thandiwe"],
    family: ["Moyo", "Ncube", "Chikwanha", "Mapfumo", "Banda", "Phiri", "Mwale", "Tembo", "Zulu", "Chisenga"],
    join: " ",
  },
  ar: {
    words: ["حب", "ليل", "قلبي", "يا حبيبي", "سلام", "بلادي", "الصحراء", "نور", "قمر", "حياتي", "الشمس", "غربة", "أمل", "يا ليل", "البحر", "وطني"],
    given: ["أمين", "ليلى", "يوسف", "نادية", "كريم", "سعاد", "رشيد", "Cheb Khaled", "Souad", "Rachid", "Nabil", "Yasmina"],
    family: ["بن علي", "العربي", "Benali", "Haddad", "El Idrissi", "Bouzid", "Mansour", "Taha", "الصغير"],
    join: " ",
  },
  he: {
    words: ["שלום", "אהבה", "לילה", "ירושלים", "שמחה", "חג שמח", "אור", "לב", "שבת", "חנוכה", "תקווה", "Shalom", "Simcha", "Hava Nagila"],
    given: ["נועה", "דוד", "Yael", "Eitan", "Tamar", "Avi", "שירה", "Noam"],
    family: ["כהן", "לוי", "Friedman", "Mizrahi", "Peretz", "Ben-David", "Katz"],
    join: " ",
  },
  hi: {
    words: ["प्यार", "दिल", "रात", "दीवाली", "होली", "भजन", "आरती", "चाँद", "जीवन", "सपना", "Diwali", "Shubh Din", "Om Namah", "गंगा", "मंदिर"],
    given: ["Arjun", "Priya", "Rohan", "Ananya", "Vikram", "Kavya", "राहुल", "सीता", "Anoushka"],
    family: ["Sharma", "Patel", "Iyer", "Mehta", "Reddy", "Kapoor", "शर्मा", "Banerjee"],
    join: " ",
  },
  zh: {
    words: ["爱", "月亮", "夜", "心", "梦", "春天", "回家", "雨", "星空", "长江", "你好", "天空", "故乡", "茉莉花", "风", "青春", "江南", "山水"],
    given: ["伟", "芳", "Li", "Mei", "Wei", "静", "磊", "Jun"],
    family: ["王", "李", "张", "刘", "陈", "Zhang", "Chen", "Wang"],
    join: "",
  },
  "zh-TW": {
    words: ["愛", "月亮", "夜晚", "心", "夢", "台北", "回家", "雨", "星星", "海邊", "青春", "思念", "時光", "阿里山", "風"],
    given: ["志明", "美玲", "Jay", "Hsin-yi", "家豪", "雅婷"],
    family: ["林", "黃", "陳", "Lin", "Huang", "吳"],
    join: "",
  },
  ja: {
    words: ["愛", "夜", "空", "桜", "夢", "東京", "月", "さよなら", "ありがとう", "君", "夏", "風", "雨", "花火", "星", "海", "ひかり", "こころ"],
    given: ["Yui", "Haruto", "さくら", "Ren", "美咲", "Sota", "Aoi", "翔"],
    family: ["佐藤", "鈴木", "Tanaka", "Watanabe", "高橋", "Yamamoto", "中村", "Kobayashi"],
    join: "",
  },
  ko: {
    words: ["사랑", "밤", "너", "꿈", "하늘", "봄날", "별", "우리", "안녕", "서울", "바다", "그리움", "Love Shot", "Dynamite", "시간"],
    given: ["민준", "Ji-woo", "서연", "Hyun", "지훈", "Soo-ah", "하은", "Min"],
    family: ["김", "이", "박", "Kim", "Lee", "Park", "최", "Jung"],
    join: " ",
  },
  km: {
    words: ["ស្រលាញ់", "ភ្នំពេញ", "ចិត្ត", "យប់", "ព្រះចន្ទ", "ស្នេហា", "ទន្លេ", "ផ្កា", "អង្គរ", "សុបិន", "ភ្លៀង"],
    given: ["Sokha", "Dara", "ស្រីមុំ", "Vannak", "Channary", "Pisey"],
    family: ["Sok", "Chan", "Keo", "សុខ", "Meas", "Heng"],
    join: " ",
  },
  th: {
    words: ["รัก", "คืนนี้", "หัวใจ", "ฝัน", "ดาว", "ทะเล", "บ้าน", "คิดถึง", "ฝน", "ดวงจันทร์", "สงกรานต์", "ลำไย"],
    given: ["Somchai", "Malee", "อรุณ", "Nattapong", "Ploy", "Kittisak"],
    family: ["Srisai", "Chaiyaporn", "Wongsakul", "สุขใจ", "Rattanakorn"],
    join: " ",
  },
  bo: {
    words: ["བདེ་སྐྱིད།", "སྙིང་རྗེ།", "ལྷ་ས།", "ཉི་མ།", "ཟླ་བ།", "གངས་རི།", "སྨོན་ལམ།", "བཀྲ་ཤིས།", "Om Mani", "Tashi Delek"],
    given: ["Tenzin", "Dolma", "Pema", "Lhamo", "Karma", "Yangchen"],
    family: ["Norbu", "Dorje", "Tsering", "Wangmo", "Gyatso"],
    join: " ",
  },
  mn: {
    words: ["Хайр", "Тал нутаг", "Ээж", "Морь", "Говь", "Тэнгэр", "Хөх Толбо", "Салхи", "Нутаг минь", "Сар", "Уул"],
    given: ["Batbayar", "Saraa", "Тэмүүжин", "Oyunaa", "Ganbold", "Enkhjin"],
    family: ["Bold", "Erdene", "Батаа", "Naran", "Sükh"],
    join: " ",
  },
  vi: {
    words: ["Tình Yêu", "Đêm", "Mưa", "Em", "Quê Hương", "Trăng", "Mùa Xuân", "Hà Nội", "Sài Gòn", "Nhớ", "Biển", "Giấc Mơ", "Hoa Sen", "Mẹ"],
    given: ["Minh", "Lan", "Tuấn", "Hương", "Dũng", "Thảo", "Quang", "Mai"],
    family: ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Võ", "Đặng"],
    join: " ",
  },
} satisfies Record<string, Language>;

export type LanguageCode = keyof typeof LANGUAGES;

/**
 * The languages an album of a genre-tree leaf is written in, first the most likely (English is
 * always a fallback in the generator: catalogs everywhere hold English titles). Keyed by the
 * lower-cased leaf name, then by the top genre.
 */
const BY_LEAF: Record<string, LanguageCode[]> = {
  chinese: ["zh"], japan: ["ja"], khmer: ["km"], korea: ["ko"], mongolia: ["mn"], taiwan: ["zh-TW"], thai: ["th"], tibet: ["bo"], vietnam: ["vi"],
  algeria: ["ar", "fr"], libya: ["ar"], moroccan: ["ar", "fr"], mauritania: ["ar", "fr"], sudan: ["ar"],
  benin: ["fr"], "burkina faso": ["fr"], "côte d'ivoire": ["fr"], guinea: ["fr"], mali: ["fr", "wo"], gambia: ["wo"],
  ghana: ["tw"], nigeria: ["yo"], "cape verde": ["pt"], "south africa": ["zu"], lesotho: ["zu"], zambia: ["sn"], zimbabwe: ["sn"],
  liberia: ["en"], namibia: ["en"],
  brazil: ["pt"], "french guiana": ["fr", "ht"], guadeloupe: ["fr", "ht"], haiti: ["ht", "fr"],
  "jewish holidays": ["he"], "hindu holidays": ["hi"],
  "new year songs brazilian": ["pt"], "new year songs mexican": ["es"], quinceañera: ["es"], "bar mitzvah": ["he"],
  "traditional italian": ["it"], "italo disco": ["it", "en"], "cuban gospel": ["es"], latin: ["es"], english: ["en"],
  "afro latin house": ["es", "en"], "latin house": ["es", "en"], "afro house": ["zu", "en"],
};
const BY_TOP: Record<string, LanguageCode[]> = {
  latin: ["es"], cuban: ["es"], french: ["fr"], italian: ["it"], brazilian: ["pt"], jazz: ["en", "fr"],
};

export function languagesOf(path: readonly string[]): LanguageCode[] {
  for (let i = path.length - 1; i >= 1; i--) {
    const hit = BY_LEAF[path[i].toLowerCase()];
    if (hit) return hit;
  }
  return BY_TOP[path[0].toLowerCase()] ?? ["en"];
}
