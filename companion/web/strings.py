"""The pages' own words in the rule books' languages (the rule messages themselves come
from companion.i18n, see messages.py). Placeholders are {name}; every language of a
string uses the same ones (a test pins it).

The words of the game are each rule book's (the ``glossary`` of the i18n catalogues):
the names of colours and gems come from the catalogues themselves, so the pages and
the referee say the same. A string with a count has its plural forms separated by
``|`` in the order of companion.i18n.forms (``one|other``; Russian and Polish
``one|few|many``); the pages pick one with Intl.PluralRules, Python with :func:`text`.
"""

from __future__ import annotations

from companion.i18n.catalogue import name_forms
from companion.i18n.forms import PLURAL_RULES, Name
from companion.rules import GEMS, PLAYER_COLOURS

LANGUAGES: tuple[str, ...] = ("en", "ru", "zh", "pl", "it")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "zh": "中文", "pl": "Polski",
                  "it": "Italiano"}

# key: (en, ru, zh, pl, it)
_TEXT: dict[str, tuple[str, str, str, str, str]] = {
    "title": ("Niagara Companion", "Ниагара — помощник", "尼亚加拉助手", "Niagara — pomocnik",
              "Niagara — assistente"),
    # names
    "cloud": ("cloud", "Облако", "云朵", "Chmurka", "nuvola"),
    "dock": ("dock", "берег", "码头", "Przystań", "molo"),
    "falls": ("waterfall", "водопад", "瀑布", "wodospad", "cascata"),
    # game state
    "phase.cards": ("Phase I: buy back, then choose a card", "Фаза I: выкуп, затем выбор карты",
                    "第一阶段：赎回，然后选船桨卡", "Faza I: wykup, potem wybór Karty Wiosła",
                    "Fase I: riscatto, poi scelta della tessera"),
    "phase.turns": ("Phase II: turns", "Фаза II: ходы", "第二阶段：行动", "Faza II: ruchy",
                    "Fase II: turni"),
    "phase.river": ("Phase III: the river moves", "Фаза III: течение реки",
                    "第三阶段：河水流动", "Faza III: rzeka płynie", "Fase III: il fiume scorre"),
    "phase.over": ("The game is over", "Игра окончена", "游戏结束", "Koniec gry",
                   "La partita è finita"),
    "round": ("Round {n}", "Раунд {n}", "第{n}轮", "Runda {n}", "Turno {n}"),
    "weather": ("Weather", "Погода", "天气", "Pogoda", "Meteo"),
    "speed": ("River speed", "Скорость реки", "河流速度", "Prędkość rzeki",
              "Velocità del fiume"),
    "speed.possible": ("possible: {list}", "возможно: {list}", "可能：{list}",
                       "możliwe: {list}", "possibile: {list}"),
    "to_move": ("{player} to move", "Ходит {player}", "轮到{player}", "Ruch: {player}",
                "Tocca a {player}"),
    "life_ring": ("Life ring", "Спасательный круг", "救生圈", "Koło ratunkowe", "Salvagente"),
    "chosen": ("Card down", "Карта выложена", "已盖放船桨卡", "Karta położona", "Tessera coperta"),
    "not_chosen": ("Choosing", "Выбирает", "正在选船桨卡", "Wybiera", "Sta scegliendo"),
    "winners": ("{players} won!", "Победа: {players}!", "{players}获胜！", "Wygrywa: {players}!",
                "Ha vinto: {players}!"),
    "reconnecting": ("Reconnecting…", "Переподключение…", "正在重新连接…", "Łączenie ponownie…",
                     "Riconnessione…"),
    "language": ("Language", "Язык", "语言", "Język", "Lingua"),
    "camp": ("Camp", "Лагерь", "营地", "Obóz", "Area di gioco"),
    "empty": ("empty", "пусто", "空", "pusto", "vuoto"),
    "card.revealed": ("plays {card}", "играет {card}", "打出{card}", "gra {card}",
                      "gioca {card}"),
    # phone
    "your_seat": ("You are {player}", "Вы — {player}", "你是{player}", "Grasz jako {player}",
                  "Sei {player}"),
    "your_hand": ("Your hand", "Ваши карты", "你的船桨卡", "Twoja ręka", "Le tue tessere"),
    "pick_card": ("Pick a card, then lay it down", "Выберите карту и положите её",
                  "选一张船桨卡，然后放下", "Wybierz Kartę Wiosła i połóż ją",
                  "Scegli una tessera e posala"),
    "lay_down": ("Lay {card} face down", "Положить {card} рубашкой вверх", "盖放{card}",
                 "Połóż {card} zakrytą", "Posa {card} coperta"),
    "card_down": ("Your card is face down: {card}", "Ваша карта выложена: {card}",
                  "你的船桨卡已盖放：{card}", "Twoja karta leży zakryta: {card}",
                  "La tua tessera è coperta: {card}"),
    "can_change": ("You can change it until the cards are revealed.",
                   "Её можно сменить, пока карты не вскрыты.", "翻开船桨卡前可以更换。",
                   "Możesz ją zmienić do odkrycia kart.",
                   "Puoi cambiarla finché le tessere non sono scoperte."),
    "take_back": ("Take it back", "Забрать", "收回", "Zabierz", "Riprendi"),
    "waiting_for": ("Waiting for {players}", "Ждём: {players}", "等待：{players}",
                    "Czekamy na: {players}", "In attesa di: {players}"),
    "all_chosen": ("Everyone has chosen a card", "Все выбрали карту", "所有人都已选好船桨卡",
                   "Wszyscy wybrali kartę", "Tutti hanno scelto una tessera"),
    "reveal": ("Reveal the cards", "Вскрыть карты", "翻开船桨卡", "Odkryj karty",
               "Scopri le tessere"),
    "you_reveal": ("Everyone has chosen. You hold the life ring: reveal!",
                   "Все выбрали. Спасательный круг у вас — вскрывайте!",
                   "大家都选好了。你持有救生圈：翻开船桨卡！",
                   "Wszyscy wybrali. Masz Koło Ratunkowe: odkryj!",
                   "Tutti hanno scelto. Hai il salvagente: scopri le tessere!"),
    "locked": ("Your card {card} is locked for this round.",
               "Ваша карта {card} зафиксирована до конца раунда.", "本轮你的船桨卡{card}已锁定。",
               "Twoja karta {card} jest zablokowana do końca rundy.",
               "La tua tessera {card} è bloccata per questo turno."),
    # Where a move is made: on the board, read by the camera or entered at the table.
    "your_turn.camera": ("Your turn with {card}: move your canoes on the board; the camera "
                         "reads the move.",
                         "Ваш ход с картой {card}: передвиньте каноэ на поле — камера "
                         "увидит ход.",
                         "轮到你，船桨卡{card}：在棋盘上移动你的船，摄像头会识别这步。",
                         "Twój ruch z kartą {card}: przesuń kanu na planszy; kamera "
                         "odczyta ruch.",
                         "Tocca a te con la tessera {card}: muovi le canoe sul tabellone; "
                         "la fotocamera legge la mossa."),
    "your_turn.table": ("Your turn with {card}: move your canoes on the board, then pick the "
                        "move on the table screen.",
                        "Ваш ход с картой {card}: передвиньте каноэ на поле и выберите ход "
                        "на экране стола.",
                        "轮到你，船桨卡{card}：在棋盘上移动你的船，然后在桌面屏幕上选这步。",
                        "Twój ruch z kartą {card}: przesuń kanu na planszy i wybierz ruch "
                        "na ekranie stołu.",
                        "Tocca a te con la tessera {card}: muovi le canoe sul tabellone, "
                        "poi scegli la mossa sullo schermo del tavolo."),
    "game_over": ("Game over", "Игра окончена", "游戏结束", "Koniec gry", "Partita finita"),
    "buyback.title": ("Canoe at the waterfall", "Каноэ у водопада", "船在瀑布下",
                      "Kanu pod wodospadem", "Canoa alla cascata"),
    "buyback.free": ("Take your free canoe", "Взять бесплатное каноэ", "免费取回一艘船",
                     "Weź darmowe kanu", "Prendi la canoa gratis"),
    "buyback.must": ("You have no canoe left: buy one back before the cards are revealed.",
                     "У вас не осталось каноэ: выкупите одно до вскрытия карт.",
                     "你没有船了：翻开船桨卡前必须赎回一艘。",
                     "Nie masz już kanu: wykup jedno przed odkryciem kart.",
                     "Non hai più canoe: riscattane una prima che le tessere siano scoperte."),
    "buyback.may": ("You may buy a canoe back with a gem from your camp.",
                    "Можно выкупить каноэ за камень из Лагеря.", "你可以用营地里的宝石赎回船。",
                    "Możesz wykupić kanu za diament z obozu.",
                    "Puoi riscattare una canoa con una gemma della tua area di gioco."),
    "your_canoes": ("Your canoes", "Ваши каноэ", "你的船", "Twoje kanu", "Le tue canoe"),
    "played": ("Played this cycle", "Сыграно в этом цикле", "本循环已打出", "Zagrane w tym cyklu",
               "Tessere giocate in questo ciclo"),
    "logged_out": ("This seat is now on another phone. Scan its QR code on the table page to "
                   "play here again.",
                   "Это место занято другим телефоном. Отсканируйте QR-код на столе, чтобы "
                   "вернуться.",
                   "该座位已在另一部手机上。扫描桌面页面上的二维码即可重新加入。",
                   "To miejsce jest teraz na innym telefonie. Zeskanuj kod QR na stole, aby "
                   "wrócić.",
                   "Questo posto è ora su un altro telefono. Scansiona il QR sul tavolo per "
                   "rientrare."),
    "joining": ("Joining the table…", "Подключение к столу…", "正在加入…",
                "Dołączanie do stołu…", "Connessione al tavolo…"),
    "join_failed": ("This link is used up. Scan the QR code on the table page again.",
                    "Ссылка уже использована. Отсканируйте QR-код на столе ещё раз.",
                    "此链接已失效。请再次扫描桌面页面上的二维码。",
                    "Ten link został już użyty. Zeskanuj ponownie kod QR na stole.",
                    "Questo link è già stato usato. Scansiona di nuovo il QR sul tavolo."),
    "at.D": ("on the dock", "на берегу", "在码头", "w Przystani", "al molo"),
    "at.F": ("at the waterfall", "у водопада", "在瀑布下", "pod wodospadem", "alla cascata"),
    "at.slot": ("on {slot}", "на {slot}", "在{slot}", "na {slot}", "su {slot}"),
    "board": ("Board", "Поле", "棋盘", "Plansza", "Tabellone"),
    # table page
    "new_game": ("New game", "Новая игра", "新游戏", "Nowa gra", "Nuova partita"),
    "setup.colours": ("Tap the colours in seating order (clockwise), 3 to 5",
                      "Нажмите цвета в порядке рассадки (по часовой), от 3 до 5",
                      "按座位顺序（顺时针）点选颜色，3到5个",
                      "Wybierz kolory w kolejności siedzenia (zgodnie z zegarem), od 3 do 5",
                      "Tocca i colori nell'ordine dei posti (in senso orario), da 3 a 5"),
    "setup.start": ("Start player", "Первый игрок", "起始玩家", "Gracz rozpoczynający",
                    "Primo giocatore"),
    "setup.branch": ("First disc from the fork goes", "Первый диск от развилки идёт",
                     "第一片河流板从分岔处流向", "Pierwsze Pole Rzeki z rozwidlenia płynie",
                     "Il primo disco dalla biforcazione va"),
    "left": ("left", "налево", "左", "w lewo", "a sinistra"),
    "right": ("right", "направо", "右", "w prawo", "a destra"),
    "variants": ("Variants", "Варианты", "变体规则", "Warianty", "Varianti"),
    "variant.no-same-colour-unload": (
        "No unloading a gem into its own colour's deposit",
        "Нельзя выгружать камень в Месторождение его цвета", "宝石不能卸到同色的宝石区域",
        "Nie wolno wyładować diamentu w Miejscu Wydobywania jego koloru",
        "Vietato scaricare una gemma nel giacimento del suo colore"),
    "variant.mandatory-steal": ("Stealing is mandatory", "Кража обязательна", "必须偷取",
                                "Kradzież jest obowiązkowa", "Il furto è obbligatorio"),
    "start_game": ("Start the game", "Начать игру", "开始游戏", "Rozpocznij grę",
                   "Inizia la partita"),
    "confirm_new": ("Start a new game? The current one stays in the store.",
                    "Начать новую игру? Текущая сохранится.", "开始新游戏？当前游戏会被保存。",
                    "Rozpocząć nową grę? Obecna zostanie zapisana.",
                    "Iniziare una nuova partita? Quella attuale resta salvata."),
    "scan_to_join": ("Scan to join", "Сканируйте, чтобы войти", "扫码加入",
                     "Zeskanuj, aby dołączyć", "Scansiona per entrare"),
    "joined": ("joined", "в игре", "已加入", "dołączył", "connesso"),
    "new_phone": ("New phone", "Новый телефон", "换手机", "Nowy telefon", "Nuovo telefono"),
    "enter_move": ("Enter {player}'s move", "Ход игрока {player}", "输入{player}的行动",
                   "Wpisz ruch: {player}", "Inserisci la mossa di {player}"),
    "legal_count": ("{n} legal move|{n} legal moves",
                    "{n} допустимый ход|{n} допустимых хода|{n} допустимых ходов",
                    "{n}种合法行动",
                    "{n} dozwolony ruch|{n} dozwolone ruchy|{n} dozwolonych ruchów",
                    "{n} mossa legale|{n} mosse legali"),
    "filter": ("Filter, or type a move (e.g. D-4+clear)", "Фильтр или ход (напр. D-4+clear)",
               "筛选或输入行动（如 D-4+clear）", "Filtr lub ruch (np. D-4+clear)",
               "Filtra o scrivi una mossa (es. D-4+clear)"),
    "play": ("Play", "Сыграть", "执行", "Zagraj", "Gioca"),
    "river.move": ("Move the river {n} step|Move the river {n} steps",
                   "Сдвинуть реку на {n} шаг|Сдвинуть реку на {n} шага|Сдвинуть реку на {n} шагов",
                   "河流前进{n}步", "Przesuń rzekę o {n} pole|Przesuń rzekę o {n} pola|"
                   "Przesuń rzekę o {n} pól",
                   "Fai scorrere il fiume di {n} disco|Fai scorrere il fiume di {n} dischi"),
    "river.branches": ("Branches taken at the fork (as seen on the table)",
                       "Куда пошли диски у развилки (как на столе)",
                       "分岔处河流板的去向（以桌面为准）",
                       "Gałęzie na rozwidleniu (jak na stole)",
                       "Rami presi alla biforcazione (come sul tavolo)"),
    "river.falls": ("Over the falls: {list}", "Упадут: {list}", "将坠落：{list}",
                    "Spadną: {list}", "Cadono: {list}"),
    "undo": ("Undo", "Отменить", "撤销", "Cofnij", "Annulla"),
    "referee": ("Referee", "Судья", "裁判", "Sędzia", "Arbitro"),
    "danger": ("Danger zone", "Опасная зона", "危险区", "Strefa zagrożenia", "Zona di pericolo"),
    "leds": ("LED strip", "Светодиодная лента", "LED灯带", "Taśma LED", "Striscia LED"),
    "leds.simulated": ("simulated", "имитация", "模拟", "symulacja", "simulata"),
    "spectator": ("View only. To run the game, open the table link printed by "
                  "`companion serve`.",
                  "Только просмотр. Чтобы вести игру, откройте ссылку стола из "
                  "`companion serve`.",
                  "仅查看。要主持游戏，请打开 `companion serve` 打印的桌面链接。",
                  "Tylko podgląd. Aby prowadzić grę, otwórz link stołu z `companion serve`.",
                  "Solo visione. Per gestire la partita apri il link del tavolo stampato da "
                  "`companion serve`."),
    "no_game": ("No game yet.", "Игры пока нет.", "还没有游戏。", "Brak gry.",
                "Nessuna partita."),
    "game_log": ("Game log", "Запись игры", "游戏记录", "Zapis gry", "Registro di gioco"),
    "reveal_wait": ("Reveal when everyone has chosen", "Вскрытие, когда все выберут",
                    "所有人选好后翻开船桨卡", "Odkrycie, gdy wszyscy wybiorą",
                    "Si scopre quando tutti hanno scelto"),
    # referee feed
    "feed.new-game": ("New game: {players}", "Новая игра: {players}", "新游戏：{players}",
                      "Nowa gra: {players}", "Nuova partita: {players}"),
    "feed.join": ("{player} joined", "{player} в игре", "{player}已加入", "{player} dołączył",
                  "{player} è entrato"),
    "feed.reveal": ("{player} reveals {card}", "{player} открывает {card}", "{player}翻开{card}",
                    "{player} odkrywa {card}", "{player} scopre {card}"),
    "feed.turn": ("{player}: {text}", "{player}: {text}", "{player}：{text}", "{player}: {text}",
                  "{player}: {text}"),
    "feed.river": ("The river moved {n} step|The river moved {n} steps",
                   "Река сдвинулась на {n} шаг|Река сдвинулась на {n} шага|"
                   "Река сдвинулась на {n} шагов", "河流前进了{n}步",
                   "Rzeka przesunęła się o {n} pole|Rzeka przesunęła się o {n} pola|"
                   "Rzeka przesunęła się o {n} pól",
                   "Il fiume è sceso di {n} disco|Il fiume è sceso di {n} dischi"),
    "feed.fell": ("{player}'s canoe went over the falls", "Каноэ игрока {player} упало",
                  "{player}的船坠落瀑布", "Kanu gracza {player} spadło",
                  "La canoa di {player} è caduta"),
    "feed.buyback": ("{player} bought back a canoe", "{player} выкупил каноэ",
                     "{player}赎回了船", "{player} wykupił kanu",
                     "{player} ha riscattato una canoa"),
    "feed.undo": ("Taken back", "Отменено", "已撤销", "Cofnięto", "Annullato"),
    "feed.camera": ("Camera", "Камера", "摄像头", "Kamera", "Fotocamera"),
    "camera.simulated": ("simulated", "симуляция", "模拟", "symulowana", "simulata"),
    "camera.watching": ("watching the board", "следит за полем", "正在观察棋盘",
                        "obserwuje planszę", "osserva il tabellone"),
    "camera.moving": ("pieces moving", "фишки двигаются", "棋子移动中", "pionki w ruchu",
                      "pezzi in movimento"),
    "camera.in the way": ("something over {places}: the camera waits until it is clear",
                          "что-то лежит над {places}: камера ждёт, пока это уберут",
                          "{places}上方有东西：摄像头等待移开",
                          "coś leży nad {places}: kamera czeka, aż zniknie",
                          "qualcosa copre {places}: la fotocamera aspetta che si liberi"),
    "camera.out of view": ("the camera does not see {places}: turn it back onto the whole board",
                           "камера не видит {places}: направьте её на всё поле",
                           "摄像头看不到{places}：请把它转回对准整个棋盘",
                           "kamera nie widzi {places}: skieruj ją z powrotem na całą planszę",
                           "la fotocamera non vede {places}: rivolgila di nuovo a tutto il "
                           "tabellone"),
    # (the parts of the board out of view that are no place, as {places} above)
    # (ru, pl: as the object of "does not see": accusative, genitive)
    "camera.deposits": ("the gem deposits", "Месторождения камней", "宝石区域",
                        "Miejsc Wydobywania", "i giacimenti di gemme"),
    "camera.weather": ("the cloud's track", "дорожку Облака", "云朵轨道", "toru Chmurki",
                       "il percorso della nuvola"),
    # (what is over the board when it lies over none of its places, as {places} above)
    "camera.the board": ("the board", "полем", "棋盘", "planszą", "il tabellone"),
    "camera.board not found": ("board not found: are the 4 markers visible?",
                               "поле не найдено: видны ли 4 метки?", "未找到棋盘：4个标记可见吗？",
                               "nie widać planszy: czy 4 znaczniki są widoczne?",
                               "tabellone non trovato: i 4 marcatori sono visibili?"),
    "camera.lost": ("camera lost: enter moves on this page", "камера потеряна: вводите ходы здесь",
                    "摄像头断开：请在此页输入走法", "kamera utracona: wpisuj ruchy tutaj",
                    "fotocamera persa: inserisci le mosse qui"),
    "camera.calibrate": ("Learn this table's colours from the set-up board",
                         "Выучить цвета этого стола по расставленной игре",
                         "根据摆好的棋盘学习本桌的颜色",
                         "Naucz się kolorów tego stołu z rozstawionej gry",
                         "Impara i colori di questo tavolo dal gioco preparato"),
    "camera.calibrating": ("Learning the colours: keep hands off the board…",
                           "Учим цвета: уберите руки с поля…", "正在学习颜色：请勿触碰棋盘…",
                           "Uczę się kolorów: zabierz ręce znad planszy…",
                           "Imparo i colori: togli le mani dal tabellone…"),
    "camera.calibrated": ("The camera learned this table's colours",
                          "Камера выучила цвета этого стола", "摄像头已学会本桌的颜色",
                          "Kamera nauczyła się kolorów tego stołu",
                          "La fotocamera ha imparato i colori di questo tavolo"),
    "camera.asked": ("The camera cannot tell which move was made",
                     "Камера не может понять, какой ход сделан", "摄像头无法判断走的是哪一步",
                     "Kamera nie rozpoznaje, który ruch wykonano",
                     "La fotocamera non capisce quale mossa è stata fatta"),
    "camera.which": ("Which was it? Tap the move made:", "Какой это был ход? Нажмите сделанный:",
                     "是哪一步？请点选实际走的那步：", "Który to był ruch? Dotknij wykonanego:",
                     "Quale mossa era? Tocca quella fatta:"),
    "feed.over": ("Game over", "Игра окончена", "游戏结束", "Koniec gry", "Partita finita"),
    "hint.retry": ("Put the pieces back and play a legal move, e.g. {example}",
                   "Верните фигуры и сделайте допустимый ход, напр. {example}",
                   "把棋子放回原处，走一步合法的行动，例如 {example}",
                   "Cofnij pionki i wykonaj dozwolony ruch, np. {example}",
                   "Rimetti a posto i pezzi e fai una mossa legale, es. {example}"),
    "hint.other": ("It is {player}'s turn", "Сейчас ходит {player}", "现在轮到{player}",
                   "Teraz ruch: {player}", "Ora tocca a {player}"),
    "hint.river": ("Every player has moved: move the river", "Все сходили: двигайте реку",
                   "所有人都行动了：移动河流", "Wszyscy się ruszyli: przesuń rzekę",
                   "Tutti hanno mosso: fai scorrere il fiume"),
    "hint.wait": ("Wait for the cards to be revealed", "Дождитесь вскрытия карт", "等待翻开船桨卡",
                  "Poczekaj na odkrycie kart", "Aspetta che le tessere siano scoperte"),
}

# Strings naming a gem, written once per gem with the grammatical form they need.
_GEM_TEXT: dict[str, tuple[str, str, str, str, str]] = {
    "with_gem": ("with a {gem}", "с {gem:ins}", "载着{gem}", "z {gem:ins}", "con la {gem}"),
    "buyback.pay": ("Buy back with a {gem}", "Выкупить за {gem:acc}", "用{gem}赎回",
                    "Wykup za {gem:acc}", "Riscatta con la {gem}"),
}
# English pages say "red gem" where the referee's terse English says "red".
_ENGLISH_GEMS = {gem: f"{gem} gem" for gem in GEMS}


def _gem(gem: str, lang: str) -> Name:
    if lang == "en":
        return Name(gem, {"nom": _ENGLISH_GEMS[gem]})
    return Name(gem, name_forms(lang, "gem", gem))


def _names(lang: str, i: int) -> dict[str, str]:
    """The colour and gem words of `lang`: the catalogue's, as the referee says them."""
    out = {f"colour.{c}": name_forms(lang, "player", c)["nom"] for c in PLAYER_COLOURS}
    for gem in GEMS:
        out[f"gem.{gem}"] = format(_gem(gem, lang), "nom")
        for key, texts in _GEM_TEXT.items():
            out[f"{key}.{gem}"] = texts[i].format(gem=_gem(gem, lang))
    return out


STRINGS: dict[str, dict[str, str]] = {
    lang: {key: texts[i] for key, texts in _TEXT.items()} | _names(lang, i)
    for i, lang in enumerate(LANGUAGES)
}


def strings(lang: str) -> dict[str, str]:
    """Every page string in `lang` (English for an unknown code)."""
    return STRINGS.get(lang, STRINGS["en"])


def text(key: str, lang: str, **values: object) -> str:
    """A page string filled with `values`; with plural forms, the one `n` needs."""
    template = strings(lang)[key]
    if "|" in template:
        forms = template.split("|")
        n = values.get("n")
        rule = PLURAL_RULES.get(lang, PLURAL_RULES["en"])
        template = forms[min(rule(abs(n)) if isinstance(n, int) else len(forms) - 1,
                             len(forms) - 1)]
    return template.format(**values)
