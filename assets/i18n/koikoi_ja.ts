<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ja" sourcelanguage="en">
    <context>
        <name>CallBanner</name>
        <message>
            <source>The computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>Koi-koi!</source>
            <translation>こいこい！</translation>
        </message>
        <message>
            <source>{0}: Koi-koi!</source>
            <translation>{0}：こいこい！</translation>
        </message>
        <message>
            <source>Shobu!</source>
            <translation>勝負！</translation>
        </message>
        <message>
            <source>{0}: Shobu!</source>
            <translation>{0}：勝負！</translation>
        </message>
        <message>
            <source>Teyaku!</source>
            <translation>手役！</translation>
        </message>
        <message>
            <source>{0}: Teyaku!</source>
            <translation>{0}：手役！</translation>
        </message>
        <message>
            <source>{0}: a new yaku!</source>
            <translation>{0}：役ができた！</translation>
        </message>
        <message>
            <source>The round goes on at ×{0}.</source>
            <translation>勝負は続行、倍率は×{0}。</translation>
        </message>
        <message numerus="yes">
            <source>%n point(s) in all.</source>
            <translation>
                <numerusform>合計%n点。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>You win the round: %n point(s).</source>
            <translation>
                <numerusform>この回はあなたの勝ち：%n点。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} wins the round: %n point(s).</source>
            <translation>
                <numerusform>この回は{0}の勝ち：%n点。</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>CardGallery</name>
        <message>
            <source>What the marks on a card mean</source>
            <translation>札の目印の見方</translation>
        </message>
        <message>
            <source>The marks of {0}</source>
            <translation>{0}の目印</translation>
        </message>
        <message>
            <source>The marks differ in shape as well as colour. They are reading aids only: Display options can hide them. Card points (20, 10, 5, 1) only rank cards when the first oya is chosen; yaku make the score.</source>
            <translation>目印は色だけでなく形でも見分けられます。札を見分けやすくするための補助なので、表示設定で隠せます。札の点数（20点・10点・5点・1点）を使うのは最初の親を決めるときの札の比べ合いだけで、得点は役で決まります。</translation>
        </message>
        <message>
            <source>{kind} {ja} · {points}</source>
            <translation>{ja} · {points}</translation>
        </message>
        <message>
            <source>The number at the top: the card's month, 1 to 12 (here January). Under it, a red sun with rays: a light (光), 20 points.</source>
            <translation>上の数字は札の月で、1〜12です（この札は1月）。その下の光を放つ赤い太陽は光札の印で、20点です。</translation>
        </message>
        <message>
            <source>A black diamond: a tane (タネ, animals and things), 10 points.</source>
            <translation>黒いひし形：タネ札（動物や道具の札）、10点。</translation>
        </message>
        <message>
            <source>A red slip with a black line: a red poem ribbon (赤短), 5 points.</source>
            <translation>黒い線の入った赤い短冊：赤短、5点。</translation>
        </message>
        <message>
            <source>A blue slip with two light bands: a blue ribbon (青短), 5 points.</source>
            <translation>明るい帯が2本入った青い短冊：青短、5点。</translation>
        </message>
        <message>
            <source>A plain red slip: one of the other ribbons (短冊), 5 points.</source>
            <translation>無地の赤い短冊：そのほかの短冊、5点。</translation>
        </message>
        <message>
            <source>A ring: a plain (カス), 1 point.</source>
            <translation>輪：カス札、1点。</translation>
        </message>
    </context>
    <context>
        <name>CardPicture</name>
        <message>
            <source>Face-down card</source>
            <translation>裏向きの札</translation>
        </message>
    </context>
    <context>
        <name>CardWidget</name>
        <message>
            <source>Face-down card</source>
            <translation>裏向きの札</translation>
        </message>
    </context>
    <context>
        <name>Cards</name>
        <message>
            <source>%n point(s)</source>
            <translation>%n点</translation>
        </message>
        <message>
            <source>%n card(s)</source>
            <translation>%n枚</translation>
        </message>
        <message>
            <source>January</source>
            <translation>1月（松）</translation>
        </message>
        <message>
            <source>February</source>
            <translation>2月（梅）</translation>
        </message>
        <message>
            <source>March</source>
            <translation>3月（桜）</translation>
        </message>
        <message>
            <source>April</source>
            <translation>4月（藤）</translation>
        </message>
        <message>
            <source>May</source>
            <translation>5月（菖蒲）</translation>
        </message>
        <message>
            <source>June</source>
            <translation>6月（牡丹）</translation>
        </message>
        <message>
            <source>July</source>
            <translation>7月（萩）</translation>
        </message>
        <message>
            <source>August</source>
            <translation>8月（芒）</translation>
        </message>
        <message>
            <source>September</source>
            <translation>9月（菊）</translation>
        </message>
        <message>
            <source>October</source>
            <translation>10月（紅葉）</translation>
        </message>
        <message>
            <source>November</source>
            <translation>11月（柳）</translation>
        </message>
        <message>
            <source>December</source>
            <translation>12月（桐）</translation>
        </message>
        <message>
            <source>light</source>
            <translation>光</translation>
        </message>
        <message>
            <source>tane</source>
            <translation>タネ</translation>
        </message>
        <message>
            <source>ribbon</source>
            <translation>短冊</translation>
        </message>
        <message>
            <source>plain</source>
            <translation>カス</translation>
        </message>
        <message>
            <source>Lights</source>
            <translation>光札</translation>
        </message>
        <message>
            <source>Tane</source>
            <translation>タネ札</translation>
        </message>
        <message>
            <source>Ribbons</source>
            <translation>短冊</translation>
        </message>
        <message>
            <source>Plains</source>
            <translation>カス札</translation>
        </message>
        <message>
            <source>Pine crane</source>
            <translation>松に鶴</translation>
        </message>
        <message>
            <source>Pine red poem ribbon</source>
            <translation>松に赤短</translation>
        </message>
        <message>
            <source>Pine plain 1</source>
            <translation>松のカス 1</translation>
        </message>
        <message>
            <source>Pine plain 2</source>
            <translation>松のカス 2</translation>
        </message>
        <message>
            <source>Plum bush warbler</source>
            <translation>梅に鶯</translation>
        </message>
        <message>
            <source>Plum red poem ribbon</source>
            <translation>梅に赤短</translation>
        </message>
        <message>
            <source>Plum plain 1</source>
            <translation>梅のカス 1</translation>
        </message>
        <message>
            <source>Plum plain 2</source>
            <translation>梅のカス 2</translation>
        </message>
        <message>
            <source>Cherry curtain</source>
            <translation>桜に幕</translation>
        </message>
        <message>
            <source>Cherry red poem ribbon</source>
            <translation>桜に赤短</translation>
        </message>
        <message>
            <source>Cherry plain 1</source>
            <translation>桜のカス 1</translation>
        </message>
        <message>
            <source>Cherry plain 2</source>
            <translation>桜のカス 2</translation>
        </message>
        <message>
            <source>Wisteria cuckoo</source>
            <translation>藤に不如帰</translation>
        </message>
        <message>
            <source>Wisteria red ribbon</source>
            <translation>藤に短冊</translation>
        </message>
        <message>
            <source>Wisteria plain 1</source>
            <translation>藤のカス 1</translation>
        </message>
        <message>
            <source>Wisteria plain 2</source>
            <translation>藤のカス 2</translation>
        </message>
        <message>
            <source>Iris bridge</source>
            <translation>菖蒲に八橋</translation>
        </message>
        <message>
            <source>Iris red ribbon</source>
            <translation>菖蒲に短冊</translation>
        </message>
        <message>
            <source>Iris plain 1</source>
            <translation>菖蒲のカス 1</translation>
        </message>
        <message>
            <source>Iris plain 2</source>
            <translation>菖蒲のカス 2</translation>
        </message>
        <message>
            <source>Peony butterflies</source>
            <translation>牡丹に蝶</translation>
        </message>
        <message>
            <source>Peony blue ribbon</source>
            <translation>牡丹に青短</translation>
        </message>
        <message>
            <source>Peony plain 1</source>
            <translation>牡丹のカス 1</translation>
        </message>
        <message>
            <source>Peony plain 2</source>
            <translation>牡丹のカス 2</translation>
        </message>
        <message>
            <source>Bush clover boar</source>
            <translation>萩に猪</translation>
        </message>
        <message>
            <source>Bush clover red ribbon</source>
            <translation>萩に短冊</translation>
        </message>
        <message>
            <source>Bush clover plain 1</source>
            <translation>萩のカス 1</translation>
        </message>
        <message>
            <source>Bush clover plain 2</source>
            <translation>萩のカス 2</translation>
        </message>
        <message>
            <source>Pampas moon</source>
            <translation>芒に月</translation>
        </message>
        <message>
            <source>Pampas geese</source>
            <translation>芒に雁</translation>
        </message>
        <message>
            <source>Pampas plain 1</source>
            <translation>芒のカス 1</translation>
        </message>
        <message>
            <source>Pampas plain 2</source>
            <translation>芒のカス 2</translation>
        </message>
        <message>
            <source>Chrysanthemum sake cup</source>
            <translation>菊に盃</translation>
        </message>
        <message>
            <source>Chrysanthemum blue ribbon</source>
            <translation>菊に青短</translation>
        </message>
        <message>
            <source>Chrysanthemum plain 1</source>
            <translation>菊のカス 1</translation>
        </message>
        <message>
            <source>Chrysanthemum plain 2</source>
            <translation>菊のカス 2</translation>
        </message>
        <message>
            <source>Maple deer</source>
            <translation>紅葉に鹿</translation>
        </message>
        <message>
            <source>Maple blue ribbon</source>
            <translation>紅葉に青短</translation>
        </message>
        <message>
            <source>Maple plain 1</source>
            <translation>紅葉のカス 1</translation>
        </message>
        <message>
            <source>Maple plain 2</source>
            <translation>紅葉のカス 2</translation>
        </message>
        <message>
            <source>Willow rain man</source>
            <translation>柳に小野道風</translation>
        </message>
        <message>
            <source>Willow swallow</source>
            <translation>柳に燕</translation>
        </message>
        <message>
            <source>Willow red ribbon</source>
            <translation>柳に短冊</translation>
        </message>
        <message>
            <source>Willow lightning</source>
            <translation>柳のカス</translation>
        </message>
        <message>
            <source>Paulownia phoenix</source>
            <translation>桐に鳳凰</translation>
        </message>
        <message>
            <source>Paulownia yellow plain</source>
            <translation>桐のカス（黄）</translation>
        </message>
        <message>
            <source>Paulownia plain 1</source>
            <translation>桐のカス 1</translation>
        </message>
        <message>
            <source>Paulownia plain 2</source>
            <translation>桐のカス 2</translation>
        </message>
        <message>
            <source>{name}, {month} {kind}</source>
            <translation>{name}、{month}の{kind}</translation>
        </message>
        <message>
            <source>{ja} · {month} · {kind}, {points}</source>
            <translation>{ja} · {month} · {kind}・{points}</translation>
        </message>
        <message>
            <source>{0} and {1}</source>
            <translation>{0}と{1}</translation>
        </message>
    </context>
    <context>
        <name>ClockWords</name>
        <message>
            <source>{0} (+{1})</source>
            <translation>{0}（＋{1}）</translation>
        </message>
        <message>
            <source>reserve {0}</source>
            <translation>持ち時間 {0}</translation>
        </message>
        <message>
            <source>Your move — {0}</source>
            <translation>あなたの番 — {0}</translation>
        </message>
        <message>
            <source>Waiting for {0}: their table still shows the last play or a result</source>
            <translation>{0}さんを待っています：相手の画面はまだ前の手か結果を表示しています</translation>
        </message>
        <message>
            <source>Waiting for {0}…</source>
            <translation>{0}さんを待っています…</translation>
        </message>
        <message>
            <source>Waiting for {0}… {1}</source>
            <translation>{0}さんを待っています… {1}</translation>
        </message>
        <message>
            <source>Waiting for {0} to reconnect: no clock runs meanwhile.</source>
            <translation>{0}さんの再接続を待っています。その間、持ち時間は減りません。</translation>
        </message>
    </context>
    <context>
        <name>Coach</name>
        <message>
            <source>{0} %</source>
            <translation>{0}%</translation>
        </message>
        <message>
            <source>call koikoi</source>
            <translation>こいこいする</translation>
        </message>
        <message>
            <source>Koikoi</source>
            <translation>こいこい</translation>
        </message>
        <message>
            <source>call shobu</source>
            <translation>勝負する</translation>
        </message>
        <message>
            <source>Shobu</source>
            <translation>勝負</translation>
        </message>
        <message>
            <source>take {0}</source>
            <translation>{0}を取る</translation>
        </message>
        <message>
            <source>play {0}</source>
            <translation>{0}を出す</translation>
        </message>
        <message>
            <source>it takes {0} or {1}, as you pick</source>
            <translation>{0}か{1}を選んで取れる</translation>
        </message>
        <message>
            <source>it takes {0}</source>
            <translation>{0}が取れる</translation>
        </message>
        <message>
            <source>it takes nothing and stays on the field</source>
            <translation>何も取れず、場に残る</translation>
        </message>
        <message>
            <source>it makes {0}</source>
            <translation>{0}ができる</translation>
        </message>
        <message>
            <source>it brings {0} within one card</source>
            <translation>{0}まであと1枚になる</translation>
        </message>
        <message>
            <source>it leaves the opponent a card for {0}</source>
            <translation>相手に{0}の札を残す</translation>
        </message>
        <message>
            <source>; </source>
            <translation>、</translation>
        </message>
        <message>
            <source>Hint: {0}.</source>
            <translation>助言：{0}のがよいでしょう。</translation>
        </message>
        <message>
            <source>Shobu: win chance {0}, {1} points now.</source>
            <translation>勝負：勝つ見込み{0}、いま{1}点。</translation>
        </message>
        <message>
            <source>Koikoi: win chance {0}; the computer wins the round first in {1} of the deals; {2} points on average.</source>
            <translation>こいこい：勝つ見込み{0}。コンピューターが先に上がるのは{1}。平均{2}点。</translation>
        </message>
        <message>
            <source>Hint: {0} is your only move.</source>
            <translation>助言：打てる手は{0}だけです。</translation>
        </message>
        <message>
            <source>Hint: {0}, win chance {1}</source>
            <translation>助言：{0}。勝つ見込み{1}</translation>
        </message>
        <message>
            <source> ({0})</source>
            <translation>（{0}）</translation>
        </message>
        <message>
            <source>{0}.</source>
            <translation>{0}。</translation>
        </message>
        <message>
            <source>{0}: about as good</source>
            <translation>{0}：ほぼ同じ</translation>
        </message>
        <message>
            <source>{0}: {1}</source>
            <translation>{0}：{1}</translation>
        </message>
        <message>
            <source>Next: {0}.</source>
            <translation>次点：{0}。</translation>
        </message>
        <message>
            <source>{0}. You chose to {1} (win chance {2}); the coach would {3} ({4})</source>
            <translation>{0}. あなたの選択：{1}（勝つ見込み{2}）。コーチなら{3}（{4}）</translation>
        </message>
    </context>
    <context>
        <name>CoachControl</name>
        <message>
            <source>Hint ({0})</source>
            <translation>助言（{0}）</translation>
        </message>
        <message>
            <source>What the coach would play, and why ({0})</source>
            <translation>コーチならどう打つか、その理由（{0}）</translation>
        </message>
        <message>
            <source>Hint: what the coach would play, and why ({0})</source>
            <translation>助言：コーチならどう打つか、その理由（{0}）</translation>
        </message>
        <message>
            <source>Hint: the coach is thinking…</source>
            <translation>助言：コーチが考えています…</translation>
        </message>
        <message>
            <source>Review this round with the coach</source>
            <translation>この回戦をコーチと振り返る</translation>
        </message>
        <message>
            <source>Review this round: the choices that cost you the most win chance</source>
            <translation>この回戦を振り返る：勝つ見込みをいちばん落とした選択</translation>
        </message>
        <message>
            <source>You had no choice to make this round.</source>
            <translation>この回戦では選べる手がありませんでした。</translation>
        </message>
        <message>
            <source>The coach is looking at your choices…</source>
            <translation>コーチがあなたの選択を見ています…</translation>
        </message>
        <message>
            <source>The coach would have chosen as you did: no choice cost {0} or more.</source>
            <translation>コーチも同じように選びました。勝つ見込みを{0}以上落とした選択はありません。</translation>
        </message>
        <message>
            <source>Show</source>
            <translation>見る</translation>
        </message>
        <message>
            <source>Show choice {0} in the replay</source>
            <translation>選択{0}をリプレイで見る</translation>
        </message>
        <message>
            <source>this match</source>
            <translation>この対局</translation>
        </message>
    </context>
    <context>
        <name>DecisionPanel</name>
        <message>
            <source>You made a yaku! 役ができました</source>
            <translation>役ができました！</translation>
        </message>
        <message>
            <source>Your total rose! 点が上がりました</source>
            <translation>点が上がりました！</translation>
        </message>
        <message>
            <source>Koikoi or shobu</source>
            <translation>こいこいか勝負か</translation>
        </message>
        <message>
            <source>Shobu now wins {0}; the computer has only {1} left, so you would receive {2} and win the match.</source>
            <translation>今勝負すれば{0}。コンピューターの持ち点は残り{1}点なので、{2}点を受け取って対戦に勝ちます。</translation>
        </message>
        <message>
            <source>Shobu now wins {0}; {name} has only {1} left, so you would receive {2} and win the match.</source>
            <translation>今勝負すれば{0}。{name}さんの持ち点は残り{1}点なので、{2}点を受け取って対戦に勝ちます。</translation>
        </message>
        <message>
            <source>Shobu now: the computer pays you {0} (it has {1}).</source>
            <translation>今勝負すれば、コンピューターが{0}点を支払います（持ち点{1}点）。</translation>
        </message>
        <message>
            <source>Shobu now: {name} pays you {0} (they have {1}).</source>
            <translation>今勝負すれば、{name}さんが{0}点を支払います（持ち点{1}点）。</translation>
        </message>
        <message>
            <source>「勝負」 Shobu
take {0} now  (S)</source>
            <translation>「勝負」
今{0}点をもらう  (S)</translation>
        </message>
        <message>
            <source>Shobu: end the round and take {0}</source>
            <translation>勝負：この回を終えて{0}をもらう</translation>
        </message>
        <message>
            <source>Koikoi plays on for more: the multiplier becomes ×{0} for whoever wins, and if the computer calls shobu first you get nothing.</source>
            <translation>こいこいで続けてさらに狙います。この回を勝った方の得点が{0}倍になりますが、先にコンピューターが勝負すると、あなたは0点です。</translation>
        </message>
        <message>
            <source>Koikoi plays on for more: the multiplier becomes ×{0} for whoever wins, and if {name} calls shobu first you get nothing.</source>
            <translation>こいこいで続けてさらに狙います。この回を勝った方の得点が{0}倍になりますが、先に{name}さんが勝負すると、あなたは0点です。</translation>
        </message>
        <message>
            <source>「こいこい」 Koikoi
play on  (K)</source>
            <translation>「こいこい」
続ける  (K)</translation>
        </message>
        <message>
            <source>Koikoi: play on, multiplier ×{0}</source>
            <translation>こいこい：続ける（倍率×{0}）</translation>
        </message>
        <message>
            <source>Both hands are empty: this is the last turn, so only shobu is possible.</source>
            <translation>2人とも手札がなくなる最後の手番なので、勝負しか選べません。</translation>
        </message>
    </context>
    <context>
        <name>Display</name>
        <message>
            <source>Small</source>
            <translation>小</translation>
        </message>
        <message>
            <source>Normal</source>
            <translation>標準</translation>
        </message>
        <message>
            <source>Large</source>
            <translation>大</translation>
        </message>
        <message>
            <source>Slow</source>
            <translation>遅い</translation>
        </message>
        <message>
            <source>Fast</source>
            <translation>速い</translation>
        </message>
        <message>
            <source>At once</source>
            <translation>すぐに</translation>
        </message>
        <message>
            <source>After 1 second</source>
            <translation>1秒後</translation>
        </message>
        <message>
            <source>After 5 seconds (rules)</source>
            <translation>5秒後（ルールどおり）</translation>
        </message>
        <message>
            <source>As the system says</source>
            <translation>システムの設定に従う</translation>
        </message>
        <message>
            <source>On</source>
            <translation>オン</translation>
        </message>
        <message>
            <source>Off</source>
            <translation>オフ</translation>
        </message>
    </context>
    <context>
        <name>DisplayDialog</name>
        <message>
            <source>Display options</source>
            <translation>表示設定</translation>
        </message>
        <message>
            <source>表示 · Display</source>
            <translation>表示</translation>
        </message>
        <message>
            <source>Reading aids: month number and kind mark on each card</source>
            <translation>札の目印：月の数字と種類の印を札に表示</translation>
        </message>
        <message>
            <source>Reading aids on the cards</source>
            <translation>札の目印</translation>
        </message>
        <message>
            <source>Card size</source>
            <translation>札の大きさ</translation>
        </message>
        <message>
            <source>Animation speed</source>
            <translation>アニメーションの速さ</translation>
        </message>
        <message>
            <source>Reduced motion</source>
            <translation>動きを減らす</translation>
        </message>
        <message>
            <source>Reduced motion (cards move without flying)</source>
            <translation>動きを減らす（札は飛ばずに移動）</translation>
        </message>
        <message>
            <source>High contrast</source>
            <translation>ハイコントラスト</translation>
        </message>
        <message>
            <source>A drawn card that resolves by itself</source>
            <translation>めくった札が自動で進むまでの時間</translation>
        </message>
        <message>
            <source>A drawn card goes on, unless clicked</source>
            <translation>めくった札の自動進行（クリックでもすぐ進みます）</translation>
        </message>
        <message>
            <source>Hide the other player's stamps</source>
            <translation>相手のスタンプを表示しない</translation>
        </message>
        <message>
            <source>Hide the other player's stamps in a network match (not shown, not spoken)</source>
            <translation>通信対戦で相手のスタンプを表示も読み上げもしない</translation>
        </message>
        <message>
            <source>These change only how the game looks and moves, never the rules. They apply at once, also to a match in progress.</source>
            <translation>ここで変わるのは見た目と動きだけで、ルールは変わりません。対戦の途中でもすぐに反映されます。</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>閉じる</translation>
        </message>
    </context>
    <context>
        <name>FirstOyaPanel</name>
        <message>
            <source>Who deals first? 親決め</source>
            <translation>親決め</translation>
        </message>
        <message>
            <source>Each player turns one card. The earlier month is oya (親) and plays first; in the same month the higher card wins; two plain cards of one month are turned again.</source>
            <translation>2人が1枚ずつ札をめくります。月の早い札をめくった方が親で、先に打ちます。同じ月なら点数の高い方が親、同じ月のカス札どうしならめくり直します。</translation>
        </message>
        <message>
            <source>You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>Turned again:</source>
            <translation>めくり直し：</translation>
        </message>
        <message>
            <source>You are oya (親): you play first.</source>
            <translation>あなたが親です。先に打ちます。</translation>
        </message>
        <message>
            <source>The computer is oya (親) and plays first.</source>
            <translation>コンピューターが親で、先に打ちます。</translation>
        </message>
        <message>
            <source>The turned cards go back and the deck is shuffled before the deal.</source>
            <translation>めくった札は戻し、札を切ってから配ります。</translation>
        </message>
        <message>
            <source>Deal the cards</source>
            <translation>札を配る</translation>
        </message>
        <message>
            <source>Both are plain cards of {0}: nobody wins, so both turn again.</source>
            <translation>どちらも{0}のカス札なので、2人ともめくり直します。</translation>
        </message>
        <message>
            <source>{0} comes before {1}: you are oya.</source>
            <translation>{0}は{1}より早いので、あなたが親です。</translation>
        </message>
        <message>
            <source>{0} comes before {1}: the computer is oya.</source>
            <translation>{0}は{1}より早いので、コンピューターが親です。</translation>
        </message>
        <message>
            <source>Both {0}: {1} ({2}) beats {3} ({4}): you are oya.</source>
            <translation>どちらも{0}の札です。{1}（{2}）が{3}（{4}）より高いので、あなたが親です。</translation>
        </message>
        <message>
            <source>Both {0}: {1} ({2}) beats {3} ({4}): the computer is oya.</source>
            <translation>どちらも{0}の札です。{1}（{2}）が{3}（{4}）より高いので、コンピューターが親です。</translation>
        </message>
    </context>
    <context>
        <name>Gallery</name>
        <message>
            <source>pine</source>
            <translation>松</translation>
        </message>
        <message>
            <source>plum</source>
            <translation>梅</translation>
        </message>
        <message>
            <source>cherry</source>
            <translation>桜</translation>
        </message>
        <message>
            <source>wisteria</source>
            <translation>藤</translation>
        </message>
        <message>
            <source>iris</source>
            <translation>菖蒲</translation>
        </message>
        <message>
            <source>peony</source>
            <translation>牡丹</translation>
        </message>
        <message>
            <source>bush clover</source>
            <translation>萩</translation>
        </message>
        <message>
            <source>pampas grass</source>
            <translation>芒</translation>
        </message>
        <message>
            <source>chrysanthemum</source>
            <translation>菊</translation>
        </message>
        <message>
            <source>maple</source>
            <translation>紅葉</translation>
        </message>
        <message>
            <source>willow</source>
            <translation>柳</translation>
        </message>
        <message>
            <source>paulownia</source>
            <translation>桐</translation>
        </message>
        <message>
            <source>{month}, {plant_name} · {n}月 {plant} ({reading})</source>
            <translation>{n}月 {plant}（{reading}）</translation>
        </message>
    </context>
    <context>
        <name>GameController</name>
        <message>
            <source>The saved match is resumed.</source>
            <translation>保存した対戦を再開しました。</translation>
        </message>
        <message>
            <source>Round {0}: you are oya (親) and play first.</source>
            <translation>第{0}回戦：あなたが親で、先に打ちます。</translation>
        </message>
        <message>
            <source>Round {0}: the computer is oya (親) and plays first.</source>
            <translation>第{0}回戦：コンピューターが親で、先に打ちます。</translation>
        </message>
        <message>
            <source>Round {0}: {name} is oya (親) and plays first.</source>
            <translation>第{0}回戦：{name}さんが親で、先に打ちます。</translation>
        </message>
        <message>
            <source>You played {0}.</source>
            <translation>あなたは{0}を出しました。</translation>
        </message>
        <message>
            <source>The computer played {0}.</source>
            <translation>コンピューターは{0}を出しました。</translation>
        </message>
        <message>
            <source>{name} played {0}.</source>
            <translation>{name}さんは{0}を出しました。</translation>
        </message>
        <message>
            <source>You turned {0} from the stock.</source>
            <translation>あなたは山札から{0}をめくりました。</translation>
        </message>
        <message>
            <source>The computer turned {0} from the stock.</source>
            <translation>コンピューターは山札から{0}をめくりました。</translation>
        </message>
        <message>
            <source>{name} turned {0} from the stock.</source>
            <translation>{name}さんは山札から{0}をめくりました。</translation>
        </message>
        <message>
            <source>You took {0} with {1}.</source>
            <translation>あなたは{1}で{0}を取りました。</translation>
        </message>
        <message>
            <source>The computer took {0} with {1}.</source>
            <translation>コンピューターは{1}で{0}を取りました。</translation>
        </message>
        <message>
            <source>{name} took {0} with {1}.</source>
            <translation>{name}さんは{1}で{0}を取りました。</translation>
        </message>
        <message>
            <source>{0} stays on the field.</source>
            <translation>{0}は場に置かれました。</translation>
        </message>
        <message>
            <source>{0} matches two field cards: choose {1} or {2}.</source>
            <translation>場に{0}と同じ月の札が2枚あります。{1}か{2}を選んでください。</translation>
        </message>
        <message>
            <source>You hold {0}.</source>
            <translation>あなたの役：{0}。</translation>
        </message>
        <message>
            <source>The computer holds {0}.</source>
            <translation>コンピューターの役：{0}。</translation>
        </message>
        <message>
            <source>{name} holds {0}.</source>
            <translation>{name}さんの役：{0}。</translation>
        </message>
        <message numerus="yes">
            <source>You hold {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>あなたの役：{0}。合計%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer holds {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>コンピューターの役：{0}。合計%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name} holds {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>{name}さんの役：{0}。合計%n点です。</numerusform>
            </translation>
        </message>
        <message>
            <source>The computer is deciding: koikoi or shobu…</source>
            <translation>コンピューターが考えています。こいこいか勝負か…</translation>
        </message>
        <message>
            <source>{name} is deciding: koikoi or shobu…</source>
            <translation>{name}さんが考えています。こいこいか勝負か…</translation>
        </message>
        <message>
            <source>Koikoi or shobu? Press K for こいこい, S for 勝負.</source>
            <translation>こいこいしますか、勝負しますか？ Kでこいこい、Sで勝負です。</translation>
        </message>
        <message>
            <source>Last turn: only 勝負 (shobu) is possible. Press S.</source>
            <translation>最後の手番なので勝負しか選べません。Sを押してください。</translation>
        </message>
        <message>
            <source>You called 「こいこい」 (koikoi): the round goes on at ×{0}.</source>
            <translation>あなたは「こいこい」しました。倍率×{0}で続けます。</translation>
        </message>
        <message>
            <source>The computer called 「こいこい」 (koikoi): the round goes on at ×{0}.</source>
            <translation>コンピューターが「こいこい」しました。倍率×{0}で続けます。</translation>
        </message>
        <message>
            <source>{name} called 「こいこい」 (koikoi): the round goes on at ×{0}.</source>
            <translation>{name}さんが「こいこい」しました。倍率×{0}で続けます。</translation>
        </message>
        <message>
            <source>Your turn: play a card from your hand.</source>
            <translation>あなたの番です。手札から1枚出してください。</translation>
        </message>
        <message>
            <source>The computer's turn.</source>
            <translation>コンピューターの番です。</translation>
        </message>
        <message>
            <source>{name}'s turn.</source>
            <translation>{name}さんの番です。</translation>
        </message>
        <message numerus="yes">
            <source>You called 「勝負」 (shobu) and win the round: %n point(s).</source>
            <translation>
                <numerusform>あなたは「勝負」して、この回に勝ちました。%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer called 「勝負」 (shobu) and wins the round: %n point(s).</source>
            <translation>
                <numerusform>コンピューターが「勝負」して、この回に勝ちました。%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name} called 「勝負」 (shobu) and wins the round: %n point(s).</source>
            <translation>
                <numerusform>{name}さんが「勝負」して、この回に勝ちました。%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Your dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>配られた手札が手役です。%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer's dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>コンピューターの配られた手札が手役です。%n点です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name}'s dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>{name}さんの配られた手札が手役です。%n点です。</numerusform>
            </translation>
        </message>
        <message>
            <source>Nobody called shobu: the round is a draw (nagare, 流れ).</source>
            <translation>誰も勝負しなかったので、この回は流れです。</translation>
        </message>
        <message>
            <source>Four cards of one month on the field: the cards are dealt again.</source>
            <translation>場札に同じ月の札が4枚そろったので、配り直します。</translation>
        </message>
        <message>
            <source>The computer paid you {0}. Stakes: you {1}, the computer {2}.</source>
            <translation>コンピューターがあなたに{0}点を支払いました。持ち点：あなた{1}、コンピューター{2}。</translation>
        </message>
        <message>
            <source>{name} paid you {0}. Stakes: you {1}, {name} {2}.</source>
            <translation>{name}さんがあなたに{0}点を支払いました。持ち点：あなた{1}、{name}さん{2}。</translation>
        </message>
        <message>
            <source>You paid the computer {0}. Stakes: you {1}, the computer {2}.</source>
            <translation>あなたはコンピューターに{0}点を支払いました。持ち点：あなた{1}、コンピューター{2}。</translation>
        </message>
        <message>
            <source>You paid {name} {0}. Stakes: you {1}, {name} {2}.</source>
            <translation>あなたは{name}さんに{0}点を支払いました。持ち点：あなた{1}、{name}さん{2}。</translation>
        </message>
        <message>
            <source>The match is over: a draw.</source>
            <translation>対戦終了：引き分けです。</translation>
        </message>
        <message>
            <source>The match is over: you win!</source>
            <translation>対戦終了：あなたの勝ちです！</translation>
        </message>
        <message>
            <source>The match is over: the computer wins.</source>
            <translation>対戦終了：コンピューターの勝ちです。</translation>
        </message>
        <message>
            <source>The match is over: {name} wins.</source>
            <translation>対戦終了：{name}さんの勝ちです。</translation>
        </message>
        <message>
            <source>Private dealing: neither side can see the other's hand or the stock</source>
            <translation>非公開の配り：相手の手札も山札も、どちらからも見えません</translation>
        </message>
        <message>
            <source>Deals from a joint seed</source>
            <translation>両者のシードから配ります</translation>
        </message>
        <message numerus="yes">
            <source>%n second(s) left to move.</source>
            <translation>
                <numerusform>持ち時間はあと%n秒です。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has sent nothing of the deal for %n minute(s): you may end the match.</source>
            <translation>
                <numerusform>{0}さんから配り札の知らせがないまま%n分たちました。対戦を終わらせることができます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has sent nothing of the deal for %n second(s): you may end the match.</source>
            <translation>
                <numerusform>{0}さんから配り札の知らせがないまま%n秒たちました。対戦を終わらせることができます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has not moved for %n minute(s): you may end the match.</source>
            <translation>
                <numerusform>{0}さんが打たないまま%n分たちました。対戦を終わらせることができます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has not moved for %n second(s): you may end the match.</source>
            <translation>
                <numerusform>{0}さんが打たないまま%n秒たちました。対戦を終わらせることができます。</numerusform>
            </translation>
        </message>
        <message>
            <source>Your time ran out: the table called shobu for you.</source>
            <translation>時間切れです。代わりに「勝負」しました。</translation>
        </message>
        <message>
            <source>Your time ran out: the table took {0} for you.</source>
            <translation>時間切れです。代わりに{0}を取りました。</translation>
        </message>
        <message>
            <source>Your time ran out: the table played {0} for you.</source>
            <translation>時間切れです。代わりに{0}を出しました。</translation>
        </message>
    </context>
    <context>
        <name>GameScreen</name>
        <message>
            <source>Prompt</source>
            <translation>案内</translation>
        </message>
        <message>
            <source>reconnecting… %1</source>
            <translation>再接続中… %1</translation>
        </message>
        <message>
            <source>{0} has sent nothing of the deal for {1}: you may end the match.</source>
            <translation>{0}さんから配り札の知らせがないまま{1}たちました。対戦を終わらせることができます。</translation>
        </message>
        <message>
            <source>Waiting for {0} to unlock the card you draw… {1}</source>
            <translation>{0}さんがめくる札の鍵を開けるのを待っています… {1}</translation>
        </message>
        <message>
            <source>Waiting for {0} to deal the cards with you… {1}</source>
            <translation>{0}さんと札を配っています… {1}</translation>
        </message>
        <message>
            <source>Your turn: click a card to play it (or 1–8 and Enter).</source>
            <translation>あなたの番です。出す札をクリックしてください（1〜8キーとEnterでも出せます）。</translation>
        </message>
        <message>
            <source>{0} selected: Enter plays it, ↑ to choose a field card, Esc puts it back.</source>
            <translation>{0}を選びました。Enterで出す、↑で場札を選ぶ、Escで戻します。</translation>
        </message>
        <message>
            <source>{0} matches two cards: click the one to take (or ← →, then Enter).</source>
            <translation>場に{0}と同じ月の札が2枚あります。取る札をクリックしてください（← → で選んで Enter でも取れます）。</translation>
        </message>
        <message>
            <source>You turned {0}: it takes {1} — by itself in {2} s, or click or Enter.</source>
            <translation>{0}をめくりました。{1}を取ります（あと{2}秒で自動、クリックかEnterですぐ）。</translation>
        </message>
        <message>
            <source>You turned {0}: no match, it stays on the field — in {1} s, or click or Enter.</source>
            <translation>{0}をめくりました。合う札がないので場に置きます（あと{1}秒で自動、クリックかEnterですぐ）。</translation>
        </message>
        <message>
            <source>Waiting for {0}… {1} s</source>
            <translation>{0}さんを待っています… {1}秒</translation>
        </message>
        <message>
            <source>{0} has not moved for {1}: you may end the match.</source>
            <translation>{0}さんが打たないまま{1}たちました。対戦を終わらせることができます。</translation>
        </message>
        <message>
            <source>The computer is thinking…</source>
            <translation>コンピューターが考えています…</translation>
        </message>
        <message>
            <source>Koikoi or shobu? K or S.</source>
            <translation>こいこいか勝負か？ KかSを押してください。</translation>
        </message>
        <message>
            <source>{0} has not moved for {1}: end the match</source>
            <translation>{0}さんが打たないまま{1}たちました：対戦を終わらせる</translation>
        </message>
        <message>
            <source>Waiting for {0}…</source>
            <translation>{0}さんを待っています…</translation>
        </message>
        <message>
            <source>You turned {0}: it takes {1} — by itself soon, or click or Enter.</source>
            <translation>{0}をめくりました。{1}を取ります（まもなく自動、クリックかEnterですぐ）。</translation>
        </message>
        <message>
            <source>You turned {0}: no match, it stays on the field — soon, or click or Enter.</source>
            <translation>{0}をめくりました。合う札がないので場に置きます（まもなく自動、クリックかEnterですぐ）。</translation>
        </message>
    </context>
    <context>
        <name>Glossary</name>
        <message>
            <source>flower cards: the 48-card deck, 12 months of 4</source>
            <translation>48枚の札。12か月×4枚</translation>
        </message>
        <message>
            <source>the game; also the call to play on for more points</source>
            <translation>この遊びの名前。また、さらに点を狙って続けるときの宣言</translation>
        </message>
        <message>
            <source>the call that ends the round and wins it</source>
            <translation>その回を終わらせて勝ちとする宣言</translation>
        </message>
        <message>
            <source>the dealer, who plays first in a round; the last round's winner</source>
            <translation>各回で先に打つ人。前の回の勝者</translation>
        </message>
        <message>
            <source>the other player, who plays second</source>
            <translation>親でない方の人。後から打つ</translation>
        </message>
        <message>
            <source>a scoring set of captured cards</source>
            <translation>点数になる取り札の組み合わせ</translation>
        </message>
        <message>
            <source>a scoring dealt hand: teshi (4 of a month) or kuttsuki (4 pairs)</source>
            <translation>点数になる配られた手札：手四（同じ月4枚）かくっつき（2枚ずつ4組）</translation>
        </message>
        <message>
            <source>the field: the face-up cards between the players</source>
            <translation>2人の間に表向きに並んだ札</translation>
        </message>
        <message>
            <source>the stock: the face-down cards turned one a turn</source>
            <translation>伏せて積んだ札。手番ごとに1枚めくる</translation>
        </message>
        <message>
            <source>the cards in your hand</source>
            <translation>手に持っている札</translation>
        </message>
        <message>
            <source>the cards you have captured</source>
            <translation>取った札</translation>
        </message>
        <message>
            <source>a light: the five 20-point cards</source>
            <translation>20点の札5枚</translation>
        </message>
        <message>
            <source>a 10-point card with an animal or a thing (also 種)</source>
            <translation>動物や道具が描かれた10点の札（「種」とも書く）</translation>
        </message>
        <message>
            <source>a ribbon card, 5 points; tan (タン) is the yaku of five</source>
            <translation>短冊の描かれた5点の札。5枚そろった役は「タン」</translation>
        </message>
        <message>
            <source>a plain card, 1 point; also the yaku of ten</source>
            <translation>1点の札。10枚そろった役の名前でもある</translation>
        </message>
        <message>
            <source>the three red ribbons with poems (pine, plum, cherry)</source>
            <translation>文字の入った赤い短冊3枚（松・梅・桜）</translation>
        </message>
        <message>
            <source>the three blue ribbons (peony, chrysanthemum, maple)</source>
            <translation>青い短冊3枚（牡丹・菊・紅葉）</translation>
        </message>
        <message>
            <source>boar, deer and butterflies: a yaku</source>
            <translation>猪・鹿・蝶の3枚がそろう役</translation>
        </message>
        <message>
            <source>a card that stands for another (elsewhere the sake cup; not in this game)</source>
            <translation>ほかの札の代わりになる札（ほかのルールでは菊に盃。このゲームにはない）</translation>
        </message>
        <message>
            <source>the sake cup: a tane, and in both viewing yaku</source>
            <translation>タネ札で、花見で一杯と月見で一杯の両方に入る</translation>
        </message>
        <message>
            <source>a round that ends with no shobu: no points, the oya stays</source>
            <translation>誰も勝負しないまま終わった回。点数なしで、親はそのまま</translation>
        </message>
        <message>
            <source>a redeal: four of a month on the field</source>
            <translation>場札に同じ月の札が4枚そろったときに配り直すこと</translation>
        </message>
        <message>
            <source>the points each player has left (25 at the start)</source>
            <translation>それぞれの残りの点数（最初は25点）</translation>
        </message>
        <message>
            <source>a round of the match (6 or 12)</source>
            <translation>対戦の中の1回（1回の対戦は6回戦か12回戦）</translation>
        </message>
        <message>
            <source>用語集 · Glossary</source>
            <translation>用語集</translation>
        </message>
        <message>
            <source>Glossary</source>
            <translation>用語集</translation>
        </message>
        <message>
            <source>Word</source>
            <translation>ローマ字</translation>
        </message>
        <message>
            <source>Japanese</source>
            <translation>用語</translation>
        </message>
        <message>
            <source>Reading</source>
            <translation>読み</translation>
        </message>
        <message>
            <source>Meaning</source>
            <translation>意味</translation>
        </message>
    </context>
    <context>
        <name>HelpDialog</name>
        <message>
            <source>Rules and keys</source>
            <translation>ルールと操作</translation>
        </message>
        <message>
            <source>Help pages</source>
            <translation>ヘルプのページ</translation>
        </message>
        <message>
            <source>In short · keys</source>
            <translation>早わかり・操作</translation>
        </message>
        <message>
            <source>Rules with pictures</source>
            <translation>絵で見るルール</translation>
        </message>
        <message>
            <source>Cards</source>
            <translation>札</translation>
        </message>
        <message>
            <source>Glossary</source>
            <translation>用語集</translation>
        </message>
        <message>
            <source>Score calculator</source>
            <translation>点数計算</translation>
        </message>
        <message>
            <source>Display options</source>
            <translation>表示設定</translation>
        </message>
        <message>
            <source>Close</source>
            <translation>閉じる</translation>
        </message>
        <message>
            <source>Two players, 48 cards: 12 months of 4. Only the month matters for matching.</source>
            <translation>2人で遊びます。札は12か月×4枚の48枚です。札を合わせるときに見るのは月だけです。</translation>
        </message>
        <message>
            <source>Each gets 8 cards; 8 lie face up on the field; 24 are the stock.</source>
            <translation>手札を8枚ずつ配り、場に8枚を表向きに並べます。残りの24枚が山札です。</translation>
        </message>
        <message>
            <source>On your turn play a hand card: a field card of the same month is taken with it; with none, your card stays on the field. You may play any card.</source>
            <translation>自分の番では、手札から1枚出します。場に同じ月の札があれば2枚とも取り、なければ出した札を場に置きます。どの札を出してもかまいません。</translation>
        </message>
        <message>
            <source>Then the top stock card is turned and matched the same way.</source>
            <translation>続けて山札の一番上をめくり、同じように取るか、場に置きます。</translation>
        </message>
        <message>
            <source>If your yaku total rose at the end of the turn, choose 「勝負」 shobu (end the round and score) or 「こいこい」 koikoi (play on for more).</source>
            <translation>手番の終わりに役の合計点が上がっていれば、「勝負」（その回を終えて得点）か「こいこい」（続けてさらに狙う）を選びます。</translation>
        </message>
        <message>
            <source>If nobody calls shobu before both hands are empty, the round is a draw (nagare).</source>
            <translation>誰も勝負しないまま2人の手札がなくなると、その回は「流れ」です。</translation>
        </message>
        <message>
            <source>A match is 6 or 12 rounds. Both start with {0} points; the loser of a round pays its points to the winner, at most what they have left. At 0 you lose at once.</source>
            <translation>対戦は6回戦か12回戦です。持ち点は2人とも{0}点で、各回の負けた人が勝った人に点数を支払います（残りの持ち点まで）。持ち点がなくなった人はその時点で負けです。</translation>
        </message>
        <message>
            <source>0 matches: the card stays on the field.</source>
            <translation>合う札が0枚：その札を場に置きます。</translation>
        </message>
        <message>
            <source>1 match: take both.</source>
            <translation>1枚：2枚とも取ります。</translation>
        </message>
        <message>
            <source>2 matches: choose which one to take; the other stays.</source>
            <translation>2枚：どちらか1枚を選んで取り、もう1枚は場に残ります。</translation>
        </message>
        <message>
            <source>3 matches: take all four.</source>
            <translation>3枚：4枚まとめて取ります。</translation>
        </message>
        <message>
            <source>A drawn card with one way to go resolves by itself after 5 seconds (click to go on sooner); with two matches you choose.</source>
            <translation>山札からめくった札は、取り方が1通りなら5秒で自動で進みます（クリックですぐ進みます）。2枚から選べるときは自分で選びます。</translation>
        </message>
        <message>
            <source>Only the highest light yaku counts; all other yaku add up.</source>
            <translation>光の役は一番高いものだけを数え、ほかの役はすべて足します。</translation>
        </message>
        <message>
            <source>Round points: the yaku total; ×2 when it is 8 or more (a setting, on by default); × (koikoi calls this round by both players + 1).</source>
            <translation>その回の得点：役の合計点。8点以上なら2倍（設定、初期設定はオン）。さらに（その回の2人のこいこいの回数＋1）倍します。</translation>
        </message>
        <message>
            <source>Shobu wins the round even if the opponent has yaku; after a koikoi you may call again only when your total rises. On the last turn only shobu is possible.</source>
            <translation>勝負すれば、相手に役があってもその回は自分の勝ちです。こいこいのあとは、合計点が上がったときだけまた選べます。最後の手番では勝負しか選べません。</translation>
        </message>
        <message>
            <source>Teyaku (a dealt hand of 4 of a month, or 4 pairs) wins 6 points at once.</source>
            <translation>手役（配られた手札に同じ月4枚、または2枚ずつ4組）は、その場で6点です。</translation>
        </message>
        <message>
            <source>Four cards of one month on the field: the cards are dealt again (not a round).</source>
            <translation>場札に同じ月の札が4枚そろったら配り直します（回戦数に数えません）。</translation>
        </message>
        <message>
            <source>The winner of a round is the next oya; after a nagare the oya stays.</source>
            <translation>その回の勝者が次の親になります。流れのときは親はそのままです。</translation>
        </message>
        <message>
            <source>← →</source>
            <translation>← →</translation>
        </message>
        <message>
            <source>move between hand cards, or between the field cards you can take</source>
            <translation>手札の間、または取れる場札の間を移動</translation>
        </message>
        <message>
            <source>↑ ↓</source>
            <translation>↑ ↓</translation>
        </message>
        <message>
            <source>go to the field cards the selected card can take, and back</source>
            <translation>選んだ札で取れる場札へ移る・手札へ戻る</translation>
        </message>
        <message>
            <source>Enter / Space</source>
            <translation>Enter / Space</translation>
        </message>
        <message>
            <source>select the focused hand card; again to play it; on a field card, take it</source>
            <translation>フォーカスした手札を選ぶ。もう一度押すと出す。場札の上では、その札を取る</translation>
        </message>
        <message>
            <source>1 – 8</source>
            <translation>1 〜 8</translation>
        </message>
        <message>
            <source>select a hand card, counting from the left</source>
            <translation>手札を左から数えて選ぶ</translation>
        </message>
        <message>
            <source>Esc</source>
            <translation>Esc</translation>
        </message>
        <message>
            <source>put the selection back</source>
            <translation>選んだ札を戻す</translation>
        </message>
        <message>
            <source>S / K</source>
            <translation>S / K</translation>
        </message>
        <message>
            <source>「勝負」 shobu / 「こいこい」 koikoi</source>
            <translation>「勝負」／「こいこい」</translation>
        </message>
        <message>
            <source>Ctrl+Z</source>
            <translation>Ctrl+Z</translation>
        </message>
        <message>
            <source>practice: take back your last turn (the match is counted apart)</source>
            <translation>練習：自分の直前の手番を取り消す（待った。その対局は統計で別に数えます）</translation>
        </message>
        <message>
            <source>F1</source>
            <translation>F1</translation>
        </message>
        <message>
            <source>this help</source>
            <translation>このヘルプ</translation>
        </message>
        <message>
            <source>Ctrl+T</source>
            <translation>Ctrl+T</translation>
        </message>
        <message>
            <source>the start screen: the statistics of your practice matches</source>
            <translation>スタート画面：練習対局の統計</translation>
        </message>
        <message>
            <source>Alt+1 – Alt+5</source>
            <translation>Alt+1 – Alt+5</translation>
        </message>
        <message>
            <source>a network match: send a stamp (its row, left to right)</source>
            <translation>通信対戦：スタンプを送る（並びの左から順に）</translation>
        </message>
        <message>
            <source>Assist display (a setting) makes cards that can capture glow; it never changes the rules.</source>
            <translation>設定「アシスト表示」では、場札を取れる札が光ります。変わるのは表示だけで、ルールは変わりません。</translation>
        </message>
        <message>
            <source>Koi-Koi in short</source>
            <translation>こいこいのルール早わかり</translation>
        </message>
        <message>
            <source>Matching</source>
            <translation>札の取り方</translation>
        </message>
        <message>
            <source>Yaku (役)</source>
            <translation>役</translation>
        </message>
        <message>
            <source>~ : one more point for each extra card.</source>
            <translation>〜：札が1枚増えるごとに1点加わります。</translation>
        </message>
        <message>
            <source>Scoring</source>
            <translation>点数計算</translation>
        </message>
        <message>
            <source>Keys</source>
            <translation>キー操作</translation>
        </message>
    </context>
    <context>
        <name>LearnPage</name>
        <message>
            <source>Contents</source>
            <translation>目次</translation>
        </message>
        <message>
            <source>Page</source>
            <translation>ページ</translation>
        </message>
    </context>
    <context>
        <name>Levels</name>
        <message>
            <source>Easy</source>
            <translation>初級</translation>
        </message>
        <message>
            <source>easy</source>
            <translation>初級</translation>
        </message>
        <message>
            <source>Normal</source>
            <translation>中級</translation>
        </message>
        <message>
            <source>normal</source>
            <translation>中級</translation>
        </message>
        <message>
            <source>Hard</source>
            <translation>上級</translation>
        </message>
        <message>
            <source>hard</source>
            <translation>上級</translation>
        </message>
        <message>
            <source>Expert</source>
            <translation>達人</translation>
        </message>
        <message>
            <source>expert</source>
            <translation>達人</translation>
        </message>
    </context>
    <context>
        <name>Lobby</name>
        <message numerus="yes">
            <source>No answer from {0} for %n second(s): the join stops at {1} s.</source>
            <translation>
                <numerusform>{0}から%n秒応答がありません。{1}秒で参加をやめます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Connected to {0}, but no answer for %n second(s): the join stops at {1} s.</source>
            <translation>
                <numerusform>{0}に接続しましたが、%n秒応答がありません。{1}秒で参加をやめます。</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Dialling the room from port {0} while its host dials you: %n second(s) left.</source>
            <translation>
                <numerusform>部屋の主があなたに発信する間、ポート{0}から部屋に発信しています。あと%n秒。</numerusform>
            </translation>
        </message>
        <message>
            <source>A private room needs a password.</source>
            <translation>鍵付きの部屋にはパスワードが必要です。</translation>
        </message>
        <message>
            <source>{0}'s room</source>
            <translation>{0}さんの部屋</translation>
        </message>
        <message>
            <source>The room cannot be opened: {0}</source>
            <translation>部屋を開けません：{0}</translation>
        </message>
        <message>
            <source>Anyone who finds the port can try to join a room open to the internet: a password keeps strangers out (close the room, tick Private, open it again).</source>
            <translation>インターネットに公開した部屋には、ポートを見つけた人なら誰でも入ろうとできます。パスワードを付ければ知らない人は入れません（部屋を閉じ、「鍵付き」にチェックして開き直してください）。</translation>
        </message>
        <message>
            <source>Asking your router to open a port for this room…</source>
            <translation>この部屋のポートを開くようルーターに頼んでいます…</translation>
        </message>
        <message>
            <source>Your router opened port {0} for this room until you close it: a friend elsewhere joins by the code.</source>
            <translation>ルーターがこの部屋のためにポート{0}を開きました（部屋を閉じるまで）。離れた所の友だちはコードで入れます。</translation>
        </message>
        <message>
            <source>The room is not open to the internet: {0}. A friend on the same network can still join.</source>
            <translation>部屋はインターネットに公開されていません：{0}。同じネットワークの友だちはそのまま入れます。</translation>
        </message>
        <message>
            <source>Your router opened port {0} for this room, but did not renew it ({1}): it may close within two minutes. A friend on the same network can still join.</source>
            <translation>ルーターはこの部屋のためにポート{0}を開きましたが、更新しませんでした（{1}）。2分以内に閉じるかもしれません。同じネットワークの友だちはそのまま入れます。</translation>
        </message>
        <message>
            <source>Waiting for a player… The room is listed on the local network.</source>
            <translation>相手を待っています… 部屋はローカルネットワークの一覧に出ています。</translation>
        </message>
        <message>
            <source>Waiting for a player… The room is not listed on the network ({0}): give your friend an address below.</source>
            <translation>相手を待っています… 部屋はネットワークの一覧に出ていません（{0}）。下のアドレスを友だちに伝えてください。</translation>
        </message>
        <message>
            <source>← Back</source>
            <translation>← 戻る</translation>
        </message>
        <message>
            <source>Back to the start screen</source>
            <translation>トップ画面に戻る</translation>
        </message>
        <message>
            <source>対戦 · Play a person</source>
            <translation>対戦</translation>
        </message>
        <message>
            <source>Your nickname:</source>
            <translation>ニックネーム：</translation>
        </message>
        <message>
            <source>e.g. hana</source>
            <translation>例：はな</translation>
        </message>
        <message>
            <source>Your nickname</source>
            <translation>ニックネーム</translation>
        </message>
        <message>
            <source>Message</source>
            <translation>お知らせ</translation>
        </message>
        <message>
            <source>Accept the new key and try again</source>
            <translation>新しい鍵を受け入れてもう一度つなぐ</translation>
        </message>
        <message>
            <source>Accept the peer's new key and try again</source>
            <translation>相手の新しい鍵を受け入れてもう一度つなぐ</translation>
        </message>
        <message>
            <source>Make a reply code</source>
            <translation>返信コードを作る</translation>
        </message>
        <message>
            <source>Make a reply code for the room's host to dial</source>
            <translation>部屋の主が発信できるように返信コードを作る</translation>
        </message>
        <message>
            <source>No rooms can be listed: {0}. Joining by address still works: ask the host for the address its screen shows.</source>
            <translation>部屋の一覧を出せません：{0}。アドレスで入ることはできます。部屋を作った人に、画面に出ているアドレスを聞いてください。</translation>
        </message>
        <message>
            <source>Looking for rooms on the local network… None yet: create one, or join by address.</source>
            <translation>ローカルネットワークの部屋を探しています… まだありません。部屋を作るか、アドレスで入ってください。</translation>
        </message>
        <message>
            <source>⚠ One title, different hosts: one room may pretend to be another. Join the one whose host fingerprint (in the Host column) you know; the peer's whole key is shown before the match.</source>
            <translation>⚠ 同じ名前の部屋が別々のホストから出ています。一方はなりすましかもしれません。ホスト欄の鍵が知っている相手のものか確かめてから入ってください。対戦の前に相手の鍵全体が表示されます。</translation>
        </message>
        <message>
            <source>Choose a nickname first: the other player sees it.</source>
            <translation>先にニックネームを決めてください。相手に表示されます。</translation>
        </message>
        <message>
            <source>Your identity cannot be read: {0}</source>
            <translation>あなたの鍵を読み込めません：{0}</translation>
        </message>
        <message>
            <source>Choose a room in the list first.</source>
            <translation>先に一覧から部屋を選んでください。</translation>
        </message>
        <message>
            <source>That room is already playing.</source>
            <translation>その部屋はもう対戦中です。</translation>
        </message>
        <message>
            <source>Connecting to {0}…</source>
            <translation>{0}に接続しています…</translation>
        </message>
        <message>
            <source>Connected to {0}: the room checks who you are…</source>
            <translation>{0}に接続しました。部屋があなたを確認しています…</translation>
        </message>
        <message>
            <source>Private room</source>
            <translation>鍵付きの部屋</translation>
        </message>
        <message>
            <source>Password for the private room</source>
            <translation>鍵付きの部屋のパスワード</translation>
        </message>
        <message>
            <source>「{0}」 is private. Its password:</source>
            <translation>「{0}」は鍵付きの部屋です。パスワード：</translation>
        </message>
        <message>
            <source>Room password</source>
            <translation>部屋のパスワード</translation>
        </message>
        <message>
            <source>Join</source>
            <translation>入る</translation>
        </message>
        <message>
            <source>Join with this password</source>
            <translation>このパスワードで入る</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>キャンセル</translation>
        </message>
        <message>
            <source>in play</source>
            <translation>対戦中</translation>
        </message>
        <message>
            <source>Rooms on the local network</source>
            <translation>ローカルネットワークの部屋</translation>
        </message>
        <message>
            <source>About the room list</source>
            <translation>部屋の一覧について</translation>
        </message>
        <message>
            <source>Join the selected room</source>
            <translation>選んだ部屋に入る</translation>
        </message>
        <message>
            <source>Allow joint-seed dealing when joining (for older koikoi)</source>
            <translation>参加時に両者のシードによる配りを許可（旧版用）</translation>
        </message>
        <message>
            <source>Allow joint-seed dealing when joining</source>
            <translation>参加時に両者のシードによる配りを許可</translation>
        </message>
        <message>
            <source>192.168.1.20:4000 · host:port · or a join code, 717MC-K273D-…</source>
            <translation>192.168.1.20:4000 · ホスト:ポート · または参加コード 717MC-K273D-…</translation>
        </message>
        <message>
            <source>Address to join, host:port, or a join code</source>
            <translation>入る先のアドレス（ホスト:ポート）か参加コード</translation>
        </message>
        <message>
            <source>An address as the host's screen shows it (HOST:PORT), or the join code it shows: the code also proves who the host is.</source>
            <translation>相手の画面に出ているアドレス（ホスト:ポート）か参加コード。コードなら相手が本人であることも確かめられます。</translation>
        </message>
        <message>
            <source>Address or code:</source>
            <translation>アドレスかコード：</translation>
        </message>
        <message>
            <source>only for a private room</source>
            <translation>鍵付きの部屋のみ</translation>
        </message>
        <message>
            <source>Password for the room at that address</source>
            <translation>そのアドレスの部屋のパスワード</translation>
        </message>
        <message>
            <source>Password:</source>
            <translation>パスワード：</translation>
        </message>
        <message>
            <source>Join by address or code</source>
            <translation>アドレスかコードで入る</translation>
        </message>
        <message>
            <source>Join by address or join code</source>
            <translation>アドレスか参加コードで入る</translation>
        </message>
        <message>
            <source>Create a room</source>
            <translation>部屋を作る</translation>
        </message>
        <message>
            <source>e.g. Friday hanafuda</source>
            <translation>例：金曜の花札</translation>
        </message>
        <message>
            <source>Room title</source>
            <translation>部屋の名前</translation>
        </message>
        <message>
            <source>Title:</source>
            <translation>部屋名：</translation>
        </message>
        <message>
            <source>{0}回戦 · {0} rounds</source>
            <translation>{0}回戦</translation>
        </message>
        <message>
            <source>{0} rounds</source>
            <translation>{0}回戦</translation>
        </message>
        <message>
            <source>Rounds:</source>
            <translation>回戦数：</translation>
        </message>
        <message>
            <source>Double at 8 points or more (8点以上×2)</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>Double at 8 points or more</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>Move clock: seconds a move and a reserve</source>
            <translation>持ち時間：1手の秒数と予備の持ち時間</translation>
        </message>
        <message>
            <source>Each move has these seconds, then the reserve for the whole match is spent; when both run out, the table makes a safe move. A clock runs only while its player's table is ready: never during a result, the toss or an animation.</source>
            <translation>1手ごとにこの秒数があり、使い切ると対戦全体の予備の持ち時間が減ります。両方なくなると、安全な手が自動で打たれます。時計が進むのはその人の画面が操作できるときだけで、結果の表示中、親決め、札の動きの間は止まっています。</translation>
        </message>
        <message>
            <source>Clock:</source>
            <translation>持ち時間：</translation>
        </message>
        <message>
            <source>Private: a password is needed to join</source>
            <translation>鍵付き：入るにはパスワードが必要</translation>
        </message>
        <message>
            <source>Password of the new room</source>
            <translation>新しい部屋のパスワード</translation>
        </message>
        <message>
            <source>Allow joint-seed dealing (for older koikoi)</source>
            <translation>両者のシードによる配りを許可（旧版用）</translation>
        </message>
        <message>
            <source>Allow joint-seed dealing</source>
            <translation>両者のシードによる配りを許可</translation>
        </message>
        <message>
            <source>Open to the internet (asks your router for a port)</source>
            <translation>インターネットに公開（ルーターにポートを開いてもらう）</translation>
        </message>
        <message>
            <source>Open the room to the internet</source>
            <translation>部屋をインターネットに公開</translation>
        </message>
        <message>
            <source>While the room is open, the app asks your home router (UPnP, PCP or NAT-PMP) to open its port, so that a friend elsewhere can join by the room's code. Anyone who finds the port can try to join: give the room a password.</source>
            <translation>部屋が開いている間、アプリが家のルーター（UPnP、PCP、NAT-PMP）にポートを開くよう頼むので、離れた所の友だちも部屋のコードで入れます。ポートを見つけた人なら誰でも入ろうとできるので、部屋にパスワードを付けてください。</translation>
        </message>
        <message>
            <source>Open the room</source>
            <translation>部屋を開く</translation>
        </message>
        <message>
            <source>Open the room and wait for a player</source>
            <translation>部屋を開いて相手を待つ</translation>
        </message>
        <message>
            <source>コンピューターと練習 · Practice vs the computer</source>
            <translation>コンピューターと練習</translation>
        </message>
        <message>
            <source>Practice with the computer, these settings</source>
            <translation>この設定でコンピューターと練習</translation>
        </message>
        <message>
            <source>Room</source>
            <translation>部屋</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状態</translation>
        </message>
        <message>
            <source>Addresses to give a friend</source>
            <translation>友だちに伝えるアドレス</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>コピー</translation>
        </message>
        <message>
            <source>Copy the join code</source>
            <translation>参加コードをコピー</translation>
        </message>
        <message>
            <source>Or give a friend this join code (it also proves the room is yours):</source>
            <translation>または、この参加コードを友だちに伝えてください（あなたの部屋であることの証明にもなります）：</translation>
        </message>
        <message>
            <source>Open to the internet</source>
            <translation>インターネットに公開</translation>
        </message>
        <message>
            <source>About a password</source>
            <translation>パスワードについて</translation>
        </message>
        <message>
            <source>Turned away</source>
            <translation>お断りした相手</translation>
        </message>
        <message>
            <source>Close the room</source>
            <translation>部屋を閉じる</translation>
        </message>
        <message>
            <source>If your friend's koikoi cannot reach this room, it shows them a reply code: type it here and both sides dial each other.</source>
            <translation>友だちのkoikoiがこの部屋につながらないときは、友だちの画面に返信コードが出ます。それをここに入力すると、双方から同時に発信します。</translation>
        </message>
        <message>
            <source>Reply code</source>
            <translation>返信コード</translation>
        </message>
        <message>
            <source>Your friend's reply code</source>
            <translation>友だちの返信コード</translation>
        </message>
        <message>
            <source>Dial back</source>
            <translation>発信する</translation>
        </message>
        <message>
            <source>Dial back your friend's reply code</source>
            <translation>友だちの返信コードに発信する</translation>
        </message>
        <message>
            <source>Dialling back</source>
            <translation>発信の状況</translation>
        </message>
        <message>
            <source>Joining {0}</source>
            <translation>{0}に入っています</translation>
        </message>
        <message>
            <source>Stop connecting</source>
            <translation>接続をやめる</translation>
        </message>
        <message>
            <source>Waiting for the room at {0} to dial you</source>
            <translation>{0} の部屋からの発信を待っています</translation>
        </message>
        <message>
            <source>Listening on port {0}.</source>
            <translation>ポート{0}で待ち受けています。</translation>
        </message>
        <message>
            <source>private</source>
            <translation>鍵付き</translation>
        </message>
        <message>
            <source>joint-seed dealing allowed</source>
            <translation>両者のシードによる配りも可</translation>
        </message>
        <message>
            <source>Waiting for a player… (announcing the room)</source>
            <translation>相手を待っています…（部屋を知らせています）</translation>
        </message>
        <message>
            <source>Port {0}. A friend elsewhere can join by address:
{1}</source>
            <translation>ポート{0}。離れた場所の友だちはアドレスで入れます：
{1}</translation>
        </message>
        <message>
            <source>Reply code: {0}</source>
            <translation>返信コード：{0}</translation>
        </message>
        <message>
            <source>Join code: {0}</source>
            <translation>参加コード：{0}</translation>
        </message>
        <message>
            <source>Read it out or paste it to the host: they type it under Reply code where their room waits.</source>
            <translation>部屋の主に読み上げるか貼り付けて伝えてください。部屋の待機画面の「返信コード」に入力してもらいます。</translation>
        </message>
        <message>
            <source>Read it out or paste it to your friend: they type it in the lobby's address field.</source>
            <translation>読み上げるか貼り付けて友だちに伝えてください。友だちはロビーのアドレス欄に入力します。</translation>
        </message>
        <message>
            <source>Your koikoi cannot reach the room. Give its host this reply code: when they type it where the room waits, both sides dial each other.</source>
            <translation>部屋につながりません。この返信コードを部屋の主に伝えてください。待機画面に入力されると、双方から同時に発信します。</translation>
        </message>
        <message>
            <source>Copy the reply code</source>
            <translation>返信コードをコピー</translation>
        </message>
        <message>
            <source>Copied</source>
            <translation>コピーしました</translation>
        </message>
        <message>
            <source>The reply code is copied.</source>
            <translation>返信コードをコピーしました。</translation>
        </message>
        <message>
            <source>The join code is copied.</source>
            <translation>参加コードをコピーしました。</translation>
        </message>
        <message>
            <source>Older koikoi (koikoi-net/2) deals from a seed both sides know: either program can then compute the other's hand and the stock. Off: only private dealing, and a player who offers only the joint seed is refused before any card is dealt.</source>
            <translation>旧版（通信方式の第2版）は両者が知るシードから配ります。そのため、どちらのプログラムも相手の手札と山札を計算できます。オフ：非公開の配りだけを使い、両者のシードしか出さない相手は札を配る前に断ります。</translation>
        </message>
        <message>
            <source>No port can be opened for a reply here: {0}</source>
            <translation>返信用のポートを開けません：{0}</translation>
        </message>
        <message>
            <source>Your router opened port {0} for the reply: the code above names it first now (give the host this one).</source>
            <translation>ルーターが返信用にポート{0}を開きました。上のコードは今はそれを先頭に含んでいます（部屋の主にはこちらを伝えてください）。</translation>
        </message>
        <message>
            <source>Your router opened no port for the reply ({0}): the room's host dials you all the same, while your koikoi dials the room.</source>
            <translation>ルーターは返信用のポートを開きませんでした（{0}）。それでも、あなたのkoikoiが部屋に発信する間、部屋の主があなたに発信します。</translation>
        </message>
        <message>
            <source>That is not a reply code ({0}): type it again.</source>
            <translation>返信コードではありません（{0}）。もう一度入力してください。</translation>
        </message>
        <message>
            <source>That is a room's code, not a reply code: your friend's koikoi shows a reply code when it cannot reach this room.</source>
            <translation>それは部屋の参加コードで、返信コードではありません。返信コードは、友だちのkoikoiがこの部屋につながらないときに友だちの画面に出ます。</translation>
        </message>
        <message>
            <source>Dialling {0} for up to {1} s while your friend's koikoi dials this room; only {2} gets in.</source>
            <translation>友だちのkoikoiがこの部屋に発信する間、{0} に最長{1}秒発信します。入れるのは {2} だけです。</translation>
        </message>
        <message>
            <source>The reply code's koikoi answered, but no match came of it ({0}): the line above says why. Type the reply code again to try again.</source>
            <translation>返信コードの相手は応答しましたが、対戦になりませんでした（{0}）。理由は上の行にあります。もう一度試すには返信コードを入力し直してください。</translation>
        </message>
        <message>
            <source>Your friend's koikoi did not answer within {0} s, both sides dialling ({1}). Are they still waiting? If it fails again, one of the two routers must let a port in: turn on UPnP (or NAT-PMP/PCP) in either, or forward a port by hand.</source>
            <translation>双方から発信しましたが、友だちのkoikoiは{0}秒以内に応答しませんでした（{1}）。友だちはまだ待っていますか？ もう一度失敗するなら、どちらかのルーターでポートを通す必要があります。どちらかのルーターでUPnP（またはNAT-PMP/PCP）を有効にするか、手動でポートを転送してください。</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>花札こいこい Koi-Koi</source>
            <translation>花札こいこい</translation>
        </message>
        <message>
            <source>Koi-Koi</source>
            <translation>こいこい</translation>
        </message>
        <message>
            <source>The saved match could not be read; it was moved to {0}.</source>
            <translation>保存した対戦を読み込めませんでした（ファイルが壊れています）。ファイルは{0}に移しました。</translation>
        </message>
        <message>
            <source>Set it aside and start a new one</source>
            <translation>中断して新しく始める</translation>
        </message>
        <message>
            <source>That match could not be resumed: {0}</source>
            <translation>その対戦は再開できませんでした：{0}</translation>
        </message>
        <message>
            <source>Set it aside and resume the other</source>
            <translation>中断してもう一方を再開する</translation>
        </message>
        <message>
            <source>The match cannot be shown</source>
            <translation>対戦を表示できません</translation>
        </message>
        <message>
            <source>This match's record cannot be shown: {0}</source>
            <translation>この対戦の記録は表示できません：{0}</translation>
        </message>
        <message>
            <source>A match is in progress</source>
            <translation>対戦の途中です</translation>
        </message>
        <message>
            <source>Your match is not finished.</source>
            <translation>対戦はまだ終わっていません。</translation>
        </message>
        <message>
            <source>Round {0} of {1}, you {2} : {3} computer. Setting it aside keeps it: it stays listed on the start screen and can be resumed from there.</source>
            <translation>{1}回戦中の第{0}回戦、あなた {2} : {3} コンピューター。中断しても対戦は残り、トップ画面の一覧から再開できます。</translation>
        </message>
        <message>
            <source>Keep playing</source>
            <translation>続ける</translation>
        </message>
        <message>
            <source>Leave the match?</source>
            <translation>対戦をやめますか？</translation>
        </message>
        <message>
            <source>Leave the match with {0}?</source>
            <translation>{0}さんとの対戦をやめますか？</translation>
        </message>
        <message>
            <source>The match ends unfinished and is not scored; {0} is told. The signed record is kept with your games.</source>
            <translation>対戦は途中で終わり、勝敗はつきません。{0}さんにも伝えます。署名付きの記録は対局記録に残ります。</translation>
        </message>
        <message>
            <source>Leave</source>
            <translation>やめる</translation>
        </message>
        <message>
            <source>{0} did not answer: the match could not be resumed.</source>
            <translation>{0} さんから応答がなく、対局を再開できませんでした。</translation>
        </message>
        <message>
            <source>The match is over</source>
            <translation>対戦終了</translation>
        </message>
        <message>
            <source>The signed record is saved as {0}.</source>
            <translation>署名付きの記録を{0}に保存しました。</translation>
        </message>
        <message>
            <source>The signed record could not be saved.</source>
            <translation>署名付きの記録を保存できませんでした。</translation>
        </message>
        <message>
            <source>Could not save the record ({0}): a crash would now lose the match.</source>
            <translation>記録を保存できませんでした（{0}）。このまま異常終了すると、この対局は失われます。</translation>
        </message>
        <message>
            <source>Your router opened port {0} for this match again.</source>
            <translation>ルーターがこの対局のためにポート{0}を再び開きました。</translation>
        </message>
        <message>
            <source>Your router did not open the port again ({0}): {1}</source>
            <translation>ルーターはポートを再び開きませんでした（{0}）：{1}</translation>
        </message>
        <message>
            <source>a friend elsewhere may not reach you.</source>
            <translation>離れた場所の友だちからはつながらないかもしれません。</translation>
        </message>
        <message>
            <source>Reconnecting to {0}…</source>
            <translation>{0} さんに再接続しています…</translation>
        </message>
        <message>
            <source>A call with another password was turned away; still waiting.</source>
            <translation>別のパスワードでの接続を断りました。引き続き待っています。</translation>
        </message>
        <message>
            <source>{0} is back: the match goes on.</source>
            <translation>{0} さんが戻りました。対局を続けます。</translation>
        </message>
        <message>
            <source>the record does not say how to reconnect</source>
            <translation>記録に再接続先が書かれていません</translation>
        </message>
        <message>
            <source>the password is not the room's</source>
            <translation>パスワードが部屋のものと違います</translation>
        </message>
        <message>
            <source>You left the match with {0}.</source>
            <translation>{0}さんとの対戦をやめました。</translation>
        </message>
        <message>
            <source>{0} left the match.</source>
            <translation>{0}さんが対戦をやめました。</translation>
        </message>
        <message>
            <source>The connection to {0} was lost.</source>
            <translation>{0}さんとの接続が切れました。</translation>
        </message>
        <message>
            <source>The connection to {0} was lost: {1}.</source>
            <translation>{0}さんとの接続が切れました：{1}。</translation>
        </message>
        <message>
            <source>{0} stopped answering: nothing arrived for too long.</source>
            <translation>{0}さんからの応答がありません。長い間何も届いていません。</translation>
        </message>
        <message>
            <source>You did not move for too long: {0} ended the match.</source>
            <translation>長い間打たなかったので、{0}さんが対戦を終わらせました。</translation>
        </message>
        <message>
            <source>{0} did not move for too long: you ended the match.</source>
            <translation>{0}さんが長い間打たなかったので、対戦を終わらせました。</translation>
        </message>
        <message>
            <source>The match was stopped: a move from {0} did not check ({1}).</source>
            <translation>対戦を止めました：{0}さんの手が確認できませんでした（{1}）。</translation>
        </message>
        <message>
            <source>The match was stopped: {0}'s app sent something malformed ({1}).</source>
            <translation>対戦を止めました：{0}さんのアプリから不正なデータが届きました（{1}）。</translation>
        </message>
        <message>
            <source>{0}'s app stopped the match: {1}.</source>
            <translation>{0}さんのアプリが対戦を止めました：{1}。</translation>
        </message>
        <message>
            <source>The match was stopped: this app failed.</source>
            <translation>対戦を止めました：このアプリでエラーが起きました。</translation>
        </message>
        <message>
            <source>The match was stopped: this app failed ({0}).</source>
            <translation>対戦を止めました：このアプリでエラーが起きました（{0}）。</translation>
        </message>
        <message>
            <source>The match with {0} ended: {1}.</source>
            <translation>{0}さんとの対戦が終わりました：{1}。</translation>
        </message>
        <message>
            <source>Rematch: {0} is still reading the result; their table says you want a rematch.</source>
            <translation>再戦：{0}さんはまだ結果を見ています。相手の画面に、あなたが再戦を望んでいることが表示されています。</translation>
        </message>
        <message>
            <source>{0} wants a rematch: click Rematch to play again.</source>
            <translation>{0}さんが再戦を希望しています：「再戦」を押すともう一度対戦します。</translation>
        </message>
        <message>
            <source>{0} has left the table.</source>
            <translation>{0}さんは席を離れました。</translation>
        </message>
        <message>
            <source>Rematch: waiting for {0} to call…</source>
            <translation>再戦：{0}さんからの接続を待っています…</translation>
        </message>
        <message>
            <source>Rematch: waiting for {0} to click Rematch too…</source>
            <translation>再戦：{0}さんが「再戦」を押すのを待っています…</translation>
        </message>
        <message>
            <source>Rematch: calling {0} again…</source>
            <translation>再戦：{0}さんにもう一度つないでいます…</translation>
        </message>
        <message>
            <source>someone else answered</source>
            <translation>別の相手が応答しました</translation>
        </message>
        <message>
            <source>No rematch with {0}: {1}</source>
            <translation>{0}さんとは再戦できません：{1}</translation>
        </message>
    </context>
    <context>
        <name>MatchResultPanel</name>
        <message>
            <source>A draw! 引き分け</source>
            <translation>引き分け！</translation>
        </message>
        <message>
            <source>You win the match! 勝利</source>
            <translation>あなたの勝ち！</translation>
        </message>
        <message>
            <source>The computer wins the match</source>
            <translation>コンピューターの勝ち</translation>
        </message>
        <message>
            <source>{name} wins the match</source>
            <translation>{name}さんの勝ち</translation>
        </message>
        <message>
            <source>Final stakes: you {0}, the computer {1}.</source>
            <translation>最終の持ち点：あなた{0}、コンピューター{1}。</translation>
        </message>
        <message>
            <source>Final stakes: you {0}, {name} {1}.</source>
            <translation>最終の持ち点：あなた{0}、{name}さん{1}。</translation>
        </message>
        <message>
            <source>A player with no points left loses at once.</source>
            <translation>持ち点がなくなった人は、その時点で負けです。</translation>
        </message>
        <message>
            <source>Rounds of the match</source>
            <translation>各回戦の結果</translation>
        </message>
        <message>
            <source>Round</source>
            <translation>回戦</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>結果</translation>
        </message>
        <message>
            <source>Yaku</source>
            <translation>役</translation>
        </message>
        <message>
            <source>Points</source>
            <translation>得点</translation>
        </message>
        <message>
            <source>You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>You won</source>
            <translation>あなたの勝ち</translation>
        </message>
        <message>
            <source>Computer won</source>
            <translation>コンピューターの勝ち</translation>
        </message>
        <message>
            <source>{name} won</source>
            <translation>{name}さんの勝ち</translation>
        </message>
        <message>
            <source>Your teyaku</source>
            <translation>あなたの手役</translation>
        </message>
        <message>
            <source>Computer's teyaku</source>
            <translation>コンピューターの手役</translation>
        </message>
        <message>
            <source>{name}'s teyaku</source>
            <translation>{name}さんの手役</translation>
        </message>
        <message>
            <source>Nagare</source>
            <translation>流れ</translation>
        </message>
        <message>
            <source>Redeal</source>
            <translation>配り直し</translation>
        </message>
        <message>
            <source> (of {0})</source>
            <translation>（本来{0}）</translation>
        </message>
        <message>
            <source>Rematch</source>
            <translation>再戦</translation>
        </message>
        <message>
            <source>Back to the start</source>
            <translation>トップ画面へ</translation>
        </message>
    </context>
    <context>
        <name>NetErrors</name>
        <message>
            <source>{0}: {1}</source>
            <translation>{0}：{1}</translation>
        </message>
        <message>
            <source>the peer did not finish the handshake within {seconds} s</source>
            <translation>相手が{seconds}秒以内に接続の準備を終えませんでした</translation>
        </message>
        <message>
            <source>the peer sent a malformed or unexpected message</source>
            <translation>相手から不正な、または予期しないデータが届きました</translation>
        </message>
        <message>
            <source>the encrypted channel could not be set up</source>
            <translation>暗号化した通信路を作れませんでした</translation>
        </message>
        <message>
            <source>a message did not decrypt: a wrong key, or it was changed on the way</source>
            <translation>データを復号できませんでした。鍵が違うか、途中で書き換えられています</translation>
        </message>
        <message>
            <source>the handshake failed</source>
            <translation>接続の準備に失敗しました</translation>
        </message>
        <message>
            <source>the peer sent a malformed or unexpected handshake message</source>
            <translation>接続の準備中に、相手から不正な、または予期しないデータが届きました</translation>
        </message>
        <message>
            <source>the peer speaks another version of the game's protocol</source>
            <translation>相手のゲームは通信の版が違います</translation>
        </message>
        <message>
            <source>the match settings differ</source>
            <translation>対戦の設定が違います</translation>
        </message>
        <message>
            <source>a private room needs its password, an open room takes none</source>
            <translation>鍵付きの部屋にはパスワードが必要で、鍵なしの部屋にはいりません</translation>
        </message>
        <message>
            <source>wrong password, or the handshake was changed on the way</source>
            <translation>パスワードが違うか、接続の準備が途中で書き換えられました</translation>
        </message>
        <message>
            <source>the identity signature does not verify</source>
            <translation>身元の署名を確認できません</translation>
        </message>
        <message>
            <source>{name}'s identity key is not the one pinned</source>
            <translation>{name}さんの鍵が記録したものと違います</translation>
        </message>
        <message>
            <source>the host's identity is {found}, not {expected} as the join code says</source>
            <translation>相手の鍵の指紋は{found}で、参加コードが示す{expected}ではありません</translation>
        </message>
        <message>
            <source>the peer's reveal does not match its commitment ({what})</source>
            <translation>相手が明かした値が約束と合いません（{what}）</translation>
        </message>
        <message>
            <source>the room refused: wrong password or a changed handshake</source>
            <translation>部屋に断られました：パスワードが違うか、接続の準備が書き換えられました</translation>
        </message>
        <message>
            <source>the room could not verify this side's identity signature</source>
            <translation>部屋がこちらの身元の署名を確認できませんでした</translation>
        </message>
        <message>
            <source>the room knows another key for this nickname</source>
            <translation>部屋はこのニックネームに別の鍵を記録しています</translation>
        </message>
        <message>
            <source>the room received a malformed or unexpected message</source>
            <translation>部屋に不正な、または予期しないデータが届きました</translation>
        </message>
        <message>
            <source>the room is already playing</source>
            <translation>部屋はもう対戦中です</translation>
        </message>
        <message>
            <source>too many wrong passwords from this address: wait a little</source>
            <translation>このアドレスからのパスワードの間違いが多すぎます。少し待ってください</translation>
        </message>
        <message>
            <source>the other side offers only joint-seed dealing, from which either program can compute the other's hand; this side deals privately only</source>
            <translation>相手は両者のシードによる配りしか出していません（どちらのプログラムも相手の手札を計算できます）。こちらは非公開の配りだけです</translation>
        </message>
        <message>
            <source>the other side deals privately only and refuses joint-seed dealing, the only dealing offered from here</source>
            <translation>相手は非公開の配りだけで、こちらが出した唯一の方式である両者のシードによる配りを断りました</translation>
        </message>
        <message>
            <source>nothing listens at that address and port: the room is closed, or the port is wrong</source>
            <translation>そのアドレスとポートで待っている部屋がありません。部屋が閉じているか、ポート番号が違います</translation>
        </message>
        <message>
            <source>no computer of that name was found: check it, or use the IP address</source>
            <translation>その名前のコンピューターが見つかりません。名前を確かめるか、IPアドレスで入ってください</translation>
        </message>
        <message>
            <source>that address cannot be reached from this network (another network, or a firewall)</source>
            <translation>このネットワークからはそのアドレスに届きません（別のネットワークか、ファイアウォールで止められています）</translation>
        </message>
        <message>
            <source>nobody answered within {seconds} s</source>
            <translation>{seconds}秒待っても応答がありませんでした</translation>
        </message>
        <message>
            <source>this computer could not open the connection</source>
            <translation>このコンピューターで接続を開けませんでした</translation>
        </message>
        <message>
            <source>too many wrong passwords from there: the room refuses it for a while</source>
            <translation>そこからのパスワードの間違いが多いため、しばらく受け付けません</translation>
        </message>
        <message>
            <source>a newer connection took its place</source>
            <translation>後から来た接続に場所を譲りました</translation>
        </message>
        <message>
            <source>the room limits password attempts</source>
            <translation>パスワードを試せる回数を制限しています</translation>
        </message>
        <message>
            <source>it did not finish the handshake in time</source>
            <translation>時間内に接続の準備が終わりませんでした</translation>
        </message>
        <message>
            <source>the connection failed: {0}</source>
            <translation>接続に失敗しました：{0}</translation>
        </message>
        <message>
            <source>the match is over</source>
            <translation>対戦は終わっています</translation>
        </message>
        <message>
            <source>the player left</source>
            <translation>相手が抜けました</translation>
        </message>
        <message>
            <source>it caught a cheat or a disagreement</source>
            <translation>不正または食い違いを見つけました</translation>
        </message>
        <message>
            <source>it received a malformed or unexpected message</source>
            <translation>不正な、または予期しないデータを受け取りました</translation>
        </message>
        <message>
            <source>it heard nothing from this side for too long</source>
            <translation>こちらから長い間何も届きませんでした</translation>
        </message>
        <message>
            <source>it failed</source>
            <translation>エラーが起きました</translation>
        </message>
        <message>
            <source>it waited too long for a move from this side</source>
            <translation>こちらの手を長い間待ちました</translation>
        </message>
        <message>
            <source>it said the match is over, but it is not over here</source>
            <translation>相手は対戦が終わったと言いましたが、こちらではまだ終わっていません</translation>
        </message>
        <message>
            <source>it gave no reason this app knows</source>
            <translation>このアプリの知らない理由でした</translation>
        </message>
        <message>
            <source>a message that cannot be read</source>
            <translation>読めないデータが届きました</translation>
        </message>
        <message>
            <source>a message that does not fit at this point of the match</source>
            <translation>対戦のこの時点では来るはずのないデータが届きました</translation>
        </message>
        <message>
            <source>it was not taken back in time</source>
            <translation>時間内に再開できませんでした</translation>
        </message>
        <message>
            <source>this app failed</source>
            <translation>このアプリでエラーが起きました</translation>
        </message>
        <message>
            <source>the connection was lost</source>
            <translation>接続が切れました</translation>
        </message>
        <message>
            <source>the match ended in a way this app does not know</source>
            <translation>このアプリの知らない形で対戦が終わりました</translation>
        </message>
        <message>
            <source>this computer has no network address</source>
            <translation>このコンピューターにネットワークのアドレスがありません</translation>
        </message>
        <message>
            <source>the network of {bind} cannot send multicast</source>
            <translation>{bind}のネットワークはマルチキャストを送れません</translation>
        </message>
        <message>
            <source>no network of this computer can send multicast</source>
            <translation>このコンピューターにはマルチキャストを送れるネットワークがありません</translation>
        </message>
        <message>
            <source>this computer has no network with the address {bind}</source>
            <translation>このコンピューターには{bind}というアドレスのネットワークがありません</translation>
        </message>
        <message>
            <source>{bind} is not an IP address</source>
            <translation>{bind}はIPアドレスではありません</translation>
        </message>
        <message>
            <source>the search for rooms on the network could not start</source>
            <translation>ネットワーク上の部屋探しを始められませんでした</translation>
        </message>
        <message>
            <source>the search for rooms on the network stopped</source>
            <translation>ネットワーク上の部屋探しが止まりました</translation>
        </message>
        <message>
            <source>the room could not be announced on the network</source>
            <translation>部屋をネットワークに知らせられませんでした</translation>
        </message>
        <message>
            <source>announcing the room took too long</source>
            <translation>部屋を知らせるのに時間がかかりすぎました</translation>
        </message>
        <message>
            <source>this computer has no address to announce</source>
            <translation>このコンピューターに知らせるアドレスがありません</translation>
        </message>
        <message>
            <source>the search for rooms on the network does not work here</source>
            <translation>このコンピューターではネットワーク上の部屋探しが使えません</translation>
        </message>
        <message>
            <source>the round had already ended</source>
            <translation>その回はもう終わっていました</translation>
        </message>
        <message>
            <source>a card from the hand must be played</source>
            <translation>手札から札を1枚出さなければなりません</translation>
        </message>
        <message>
            <source>only a field card of the same month can be taken, and only when one is due</source>
            <translation>取れるのは同じ月の場札だけで、取る番のときだけです</translation>
        </message>
        <message>
            <source>with two matches on the field, one of them must be taken</source>
            <translation>場に同じ月の札が2枚あれば、どちらかを取らなければなりません</translation>
        </message>
        <message>
            <source>the players move in turn</source>
            <translation>手番は交互です</translation>
        </message>
        <message>
            <source>koikoi or shobu is decided when a player's total rose, and only then</source>
            <translation>こいこいか勝負かは、役の点が上がったときにだけ決めます</translation>
        </message>
        <message>
            <source>on the last turn only shobu is allowed</source>
            <translation>最後の手番では勝負しかできません</translation>
        </message>
        <message>
            <source>it moved before acknowledging move {0}</source>
            <translation>{0}手目の確認を返さないまま次の手を打ちました</translation>
        </message>
        <message>
            <source>it is numbered {0} where {1} is due (replayed, reordered or dropped)</source>
            <translation>{1}番目の手のところに{0}番目の手が来ました（繰り返し・入れ替え・抜け）</translation>
        </message>
        <message>
            <source>it does not follow on from the move before</source>
            <translation>前の手とつながっていません</translation>
        </message>
        <message>
            <source>its acknowledgement's signature does not verify</source>
            <translation>確認の署名が正しくありません</translation>
        </message>
        <message>
            <source>its signature does not verify</source>
            <translation>署名が正しくありません</translation>
        </message>
        <message>
            <source>after it, the two games' states differ</source>
            <translation>この手のあと、両方のゲームの状態が食い違いました</translation>
        </message>
        <message>
            <source>the signed move is not the move the record shows</source>
            <translation>署名された手が記録に書かれた手と違います</translation>
        </message>
        <message>
            <source>it is not signed</source>
            <translation>署名がありません</translation>
        </message>
        <message>
            <source>its acknowledgement cannot be read</source>
            <translation>確認のデータが読めません</translation>
        </message>
        <message>
            <source>its acknowledgement is of another move</source>
            <translation>確認が別の手に対するものです</translation>
        </message>
        <message>
            <source>the moves before it do not lead to this deal</source>
            <translation>それまでの手からはこの配りになりません</translation>
        </message>
        <message>
            <source>its cards are not the ones the coin toss dealt</source>
            <translation>札が、コイントスで決まる配りと違います</translation>
        </message>
        <message>
            <source>the acknowledgement of move {0} does not check</source>
            <translation>{0}手目の確認が正しくありません</translation>
        </message>
        <message>
            <source>the host's coin toss reveal does not match its commitment</source>
            <translation>部屋を作った側がコイントスで明かした値が、先に約束した値と合いません</translation>
        </message>
        <message>
            <source>the coin toss gives another deal than the record</source>
            <translation>コイントスの結果が記録と合いません</translation>
        </message>
        <message>
            <source>the record has no handshake signatures</source>
            <translation>記録に接続時の署名がありません</translation>
        </message>
        <message>
            <source>a player's key did not sign this session</source>
            <translation>この対戦に一方のプレイヤーの鍵の署名がありません</translation>
        </message>
        <message>
            <source>the record has no coin toss</source>
            <translation>記録にコイントスがありません</translation>
        </message>
        <message>
            <source>the record says the match finished, but its moves do not end it</source>
            <translation>記録は対戦が終わったとしていますが、手はそこまで進んでいません</translation>
        </message>
        <message>
            <source>the record has no network signatures</source>
            <translation>記録にネットワーク対戦の署名がありません</translation>
        </message>
        <message>
            <source>the record's protocol is not one this koikoi reads</source>
            <translation>このアプリでは読めない通信方式の記録です</translation>
        </message>
        <message>
            <source>it plays another card than the one its app opened</source>
            <translation>アプリが開いた札とは別の札を出しています</translation>
        </message>
        <message>
            <source>its draw does not match the keys exchanged for it</source>
            <translation>引いた札が交換した鍵と合いません</translation>
        </message>
        <message>
            <source>its dealing seed is not the one it committed to</source>
            <translation>配りのシードが約束したものと違います</translation>
        </message>
        <message>
            <source>it kept quiet a hand that ended the deal at once (a teyaku)</source>
            <translation>配られてすぐ勝負のつく手（手役）を黙っていました</translation>
        </message>
        <message>
            <source>it played a card its dealt hand did not hold</source>
            <translation>配られた手札にない札を出しました</translation>
        </message>
        <message>
            <source>its part of the private dealing does not check</source>
            <translation>非公開の配りの相手の分が確認できません</translation>
        </message>
        <message>
            <source>it asked to open a draw its move does not make</source>
            <translation>その手では引かない札を開けるよう求めました</translation>
        </message>
        <message>
            <source>it opened a card out of its turn</source>
            <translation>順番でないときに札を開けました</translation>
        </message>
        <message>
            <source>it revealed its dealing seed before the deal was over</source>
            <translation>配りが終わる前に配りのシードを明かしました</translation>
        </message>
        <message>
            <source>the deck it keeps is not the one it sent</source>
            <translation>手元の山札が送ってきたものと違います</translation>
        </message>
        <message>
            <source>it declared a teyaku its hand does not hold</source>
            <translation>手札にない手役を宣言しました</translation>
        </message>
        <message>
            <source>a move the rules do not allow (rule {0})</source>
            <translation>ルールで許されない手（ルール{0}）</translation>
        </message>
        <message>
            <source>a move the rules do not allow (rule {0}: {1})</source>
            <translation>ルールで許されない手（ルール{0}：{1}）</translation>
        </message>
        <message>
            <source>the record is damaged, or it was changed</source>
            <translation>記録が壊れているか、書き換えられています</translation>
        </message>
        <message>
            <source>deal {0}</source>
            <translation>{0}回目の配り</translation>
        </message>
        <message>
            <source>move {0} (deal {1})</source>
            <translation>{1}回目の配りの{0}手目</translation>
        </message>
        <message>
            <source>a draw</source>
            <translation>引き分け</translation>
        </message>
        <message>
            <source>you won</source>
            <translation>あなたの勝ち</translation>
        </message>
        <message>
            <source>you lost</source>
            <translation>あなたの負け</translation>
        </message>
        <message>
            <source>The result stands as the signed moves give it ({1}). {0} did not reveal its seed of the last deal, so that deal's audit could not be done.</source>
            <translation>結果は署名された手のとおりです（{1}）。{0}さんが最後の配りのシードを明かさなかったため、その配りの検証はできませんでした。</translation>
        </message>
        <message>
            <source>The result stands as the signed moves give it ({1}). The audit of the last deal failed: {0}'s part of the dealing does not check.</source>
            <translation>結果は署名された手のとおりです（{1}）。最後の配りの検証に失敗しました：{0}さんの配りの手順が正しくありません。</translation>
        </message>
        <message>
            <source>The result stands as the signed moves give it ({0}). The audit of the last deal failed on this side's part of the dealing.</source>
            <translation>結果は署名された手のとおりです（{0}）。最後の配りの検証が、こちら側の配りの手順で失敗しました。</translation>
        </message>
        <message>
            <source>{0} did not reveal its seed of the deal just played, so the deal could not be audited: the match ended, abandoned by {0}.</source>
            <translation>{0}さんが終わった配りのシードを明かさなかったため、配りを検証できませんでした：{0}さんの放棄として対戦は終了しました。</translation>
        </message>
        <message>
            <source>the router cannot be asked for a port: the UPnP library (miniupnpc) is missing</source>
            <translation>ルーターにポートを頼めません：UPnPのライブラリがインストールされていません</translation>
        </message>
        <message>
            <source>no router answered {protocol}: turn it on in the router's settings, or forward a port to this computer by hand</source>
            <translation>{protocol}に応答するルーターがありません。ルーターの設定で有効にするか、このコンピューターへのポートを手動で転送してください</translation>
        </message>
        <message>
            <source>the router does not speak {protocol}</source>
            <translation>ルーターは{protocol}に対応していません</translation>
        </message>
        <message>
            <source>the router's UPnP service answered with an error</source>
            <translation>ルーターのUPnPサービスがエラーを返しました</translation>
        </message>
        <message>
            <source>the router has no internet connection, or no external address: check its connection</source>
            <translation>ルーターがインターネットにつながっていないか、外部アドレスがありません。ルーターの接続を確かめてください</translation>
        </message>
        <message>
            <source>the router's external address {external} is private: another router or the provider's NAT stands in front of it, so a mapping reaches no one</source>
            <translation>ルーターの外部アドレス{external}はプライベートアドレスです。手前に別のルーターかプロバイダーのNATがあるため、ポートを開いても誰にも届きません</translation>
        </message>
        <message>
            <source>the router refused to map port {port}: allow UPnP port mappings for this computer in the router's settings</source>
            <translation>ルーターがポート{port}を開くのを断りました。ルーターの設定で、このコンピューターのUPnPによるポート開放を許可してください</translation>
        </message>
        <message>
            <source>the router refused by {protocol}: {meaning}</source>
            <translation>ルーターが{protocol}で断りました：{meaning}</translation>
        </message>
        <message>
            <source>the router's {protocol} answer could not be read</source>
            <translation>ルーターの{protocol}の応答を読み取れませんでした</translation>
        </message>
        <message>
            <source>this computer has no default gateway to ask by {protocol}</source>
            <translation>{protocol}で問い合わせるデフォルトゲートウェイがこのコンピューターにありません</translation>
        </message>
        <message>
            <source>the router opened its firewall for another address ({external})</source>
            <translation>ルーターは別のアドレス（{external}）に対してファイアウォールを開けました</translation>
        </message>
        <message>
            <source>the router did not renew the port's mapping</source>
            <translation>ルーターがポートの開放を更新しませんでした</translation>
        </message>
        <message>
            <source>the router did not remove the port's mapping</source>
            <translation>ルーターがポートの開放を取り消しませんでした</translation>
        </message>
        <message>
            <source>no router answered UPnP, PCP or NAT-PMP: turn on UPnP (or NAT-PMP/PCP) in the router's settings, or forward a port to this computer by hand and join by address</source>
            <translation>UPnP、PCP、NAT-PMPのどれにも応答するルーターがありません。ルーターの設定でUPnP（またはNAT-PMP/PCP）を有効にするか、このコンピューターへのポートを手動で転送してアドレスで入ってください</translation>
        </message>
        <message>
            <source>the router did not finish mapping the port within {seconds} s: turn on UPnP in its settings or forward the port by hand</source>
            <translation>ルーターは{seconds}秒以内にポートを開き終えませんでした。ルーターの設定でUPnPを有効にするか、ポートを手動で転送してください</translation>
        </message>
        <message>
            <source>the router's answer could not be read</source>
            <translation>ルーターの応答を読み取れませんでした</translation>
        </message>
        <message>
            <source>the router could not be asked for a port</source>
            <translation>ルーターにポートを頼めませんでした</translation>
        </message>
        <message>
            <source>{0} is turned off for this computer</source>
            <translation>このコンピューターには{0}が無効にされています</translation>
        </message>
        <message>
            <source>the router has no external address</source>
            <translation>ルーターに外部アドレスがありません</translation>
        </message>
        <message>
            <source>it has no port left</source>
            <translation>空いているポートがありません</translation>
        </message>
        <message>
            <source>this computer has too many mappings</source>
            <translation>このコンピューターのポート開放が多すぎます</translation>
        </message>
        <message>
            <source>it cannot give the port asked for</source>
            <translation>頼んだポートを割り当てられません</translation>
        </message>
        <message>
            <source>another NAT stands between this computer and the router</source>
            <translation>このコンピューターとルーターの間に別のNATがあります</translation>
        </message>
        <message>
            <source>it does not understand the request (code {0})</source>
            <translation>要求を理解できません（コード{0}）</translation>
        </message>
        <message>
            <source>no answer</source>
            <translation>応答なし</translation>
        </message>
        <message>
            <source>answered, but no match came of it</source>
            <translation>応答はありましたが、対局になりませんでした</translation>
        </message>
        <message>
            <source>nothing listens there</source>
            <translation>そこでは何も待ち受けていません</translation>
        </message>
        <message>
            <source>no route to it from this network</source>
            <translation>このネットワークからは届きません</translation>
        </message>
        <message>
            <source>this computer has no address of that kind</source>
            <translation>このコンピューターにはその種類のアドレスがありません</translation>
        </message>
        <message>
            <source>the connection was cut</source>
            <translation>接続が切れました</translation>
        </message>
        <message>
            <source>the connection failed</source>
            <translation>接続できませんでした</translation>
        </message>
    </context>
    <context>
        <name>Panels</name>
        <message>
            <source>new</source>
            <translation>新しい役</translation>
        </message>
        <message>
            <source>Yaku total (base points)</source>
            <translation>役の合計（基本点）</translation>
        </message>
        <message>
            <source>8 or more: doubled</source>
            <translation>8点以上：2倍</translation>
        </message>
        <message>
            <source>Koikoi calls this round: {0}</source>
            <translation>この回のこいこい：{0}回</translation>
        </message>
        <message>
            <source>Round points</source>
            <translation>この回の得点</translation>
        </message>
    </context>
    <context>
        <name>Prematch</name>
        <message>
            <source>That counts as abandoning the coin toss after seeing the result: {0} has done so %n time(s).</source>
            <translation>結果を見てからコイントスを投げ出したものとして数えます。{0}さんはこれで%n回です。</translation>
        </message>
        <message>
            <source>Private dealing: neither side can see the other's hand or the stock</source>
            <translation>非公開の配り：相手の手札も山札も、どちらからも見えません</translation>
        </message>
        <message>
            <source>Deals from a joint seed</source>
            <translation>両者のシードから配ります</translation>
        </message>
        <message>
            <source>Leave</source>
            <translation>抜ける</translation>
        </message>
        <message>
            <source>That is not an address. Write HOST:PORT, for example 192.168.1.20:4000, [2001:db8::20]:4000 or hana.local:4000.</source>
            <translation>アドレスになっていません。ホスト:ポートの形で書いてください。例：192.168.1.20:4000、[2001:db8::20]:4000、hana.local:4000</translation>
        </message>
        <message>
            <source>Nobody answered at {0} in time: is the room still open?</source>
            <translation>{0}から時間内に応答がありませんでした。部屋はまだ開いていますか？</translation>
        </message>
        <message>
            <source>Could not reach {0}: is the room still open, and is the address right? ({1})</source>
            <translation>{0}につながりませんでした。部屋はまだ開いていますか？ アドレスは合っていますか？（{1}）</translation>
        </message>
        <message>
            <source>Wrong password: the room did not accept it (or someone changed the messages on the way).</source>
            <translation>パスワードが違います。部屋に受け付けられませんでした（または途中で通信が書き換えられました）。</translation>
        </message>
        <message>
            <source>the number of rounds</source>
            <translation>回戦数</translation>
        </message>
        <message>
            <source>the 8-point doubling</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>the match settings</source>
            <translation>対戦の設定</translation>
        </message>
        <message>
            <source>The room plays other settings than yours ({0}): choose the same.</source>
            <translation>部屋の設定があなたの設定と違います（{0}）。同じ設定にしてください。</translation>
        </message>
        <message>
            <source>The password does not fit the room: a private room needs its password, an open room takes none.</source>
            <translation>パスワードが部屋に合いません。鍵付きの部屋にはパスワードが必要で、鍵なしの部屋にはいりません。</translation>
        </message>
        <message>
            <source>WARNING: {0} now has another key! Pinned: {1}. Now: {2}. Someone may be posing as them. The connection was refused. Accept the new key only if {0} told you they reinstalled or moved to another computer.</source>
            <translation>警告：{0}さんの鍵が変わっています！ 記録した鍵：{1}。今の鍵：{2}。誰かが{0}さんになりすましているかもしれません。接続は断りました。{0}さんから入れ直した、または別のコンピューターに移ったと聞いたときだけ、新しい鍵を受け入れてください。</translation>
        </message>
        <message>
            <source>That join code does not check out: {0}. Compare it with your friend's, symbol by symbol; nothing was dialled.</source>
            <translation>その参加コードは確認に通りませんでした：{0}。友だちのコードと一文字ずつ見比べてください。接続はしていません。</translation>
        </message>
        <message>
            <source>That is a reply code: a friend's koikoi shows one when it cannot reach the room, for the room's host to type. To join, type the code of the room; nothing was dialled.</source>
            <translation>それは返信コードです。友だちのこいこいが部屋に届かないときに表示するもので、部屋のホストが入力します。参加するには部屋のコードを入力してください。接続はしていません。</translation>
        </message>
        <message>
            <source>The room did not dial back in time, both sides dialling ({0}). Did its host type your reply code? If it still fails, one of the two routers must let a port in: turn on UPnP (or NAT-PMP/PCP) in either router, or forward a port by hand.</source>
            <translation>双方から発信しましたが、部屋からの発信が時間内に届きませんでした（{0}）。部屋の主は返信コードを入力しましたか？ それでも失敗するなら、どちらかのルーターでポートを通す必要があります。どちらかのルーターでUPnP（またはNAT-PMP/PCP）を有効にするか、手動でポートを転送してください。</translation>
        </message>
        <message>
            <source>The room at {0} is not the one the join code names: its host's identity is {1}, the code's is {2}. Another program answered there; the room was not joined.</source>
            <translation>{0}の部屋は参加コードが示す部屋ではありません。相手の鍵の指紋は{1}、コードの指紋は{2}です。別のプログラムが応答したため、部屋には入りませんでした。</translation>
        </message>
        <message>
            <source>The peer's signature does not verify: the connection was refused.</source>
            <translation>相手の署名を確認できません。接続は断りました。</translation>
        </message>
        <message>
            <source>The peer runs another version of the game's protocol: update both.</source>
            <translation>相手のゲームは通信の版が違います。2人とも最新版にしてください。</translation>
        </message>
        <message>
            <source>The room is already playing with someone else.</source>
            <translation>その部屋はもうほかの人と対戦中です。</translation>
        </message>
        <message>
            <source>The room refused the connection: {0}</source>
            <translation>部屋に接続を断られました：{0}</translation>
        </message>
        <message>
            <source>Turned away {0}: {1}</source>
            <translation>{0}をお断りしました：{1}</translation>
        </message>
        <message>
            <source>You stopped connecting.</source>
            <translation>接続をやめました。</translation>
        </message>
        <message>
            <source>The handshake with {0} timed out: the peer stopped answering.</source>
            <translation>{0}との接続の準備が時間切れになりました。相手の応答が止まりました。</translation>
        </message>
        <message>
            <source>The peer sent something the game does not understand: {0}</source>
            <translation>相手からゲームが理解できないデータが届きました：{0}</translation>
        </message>
        <message>
            <source>Something went wrong here: {0}</source>
            <translation>このアプリで問題が起きました：{0}</translation>
        </message>
        <message>
            <source>Refused: the other side deals privately only and refuses joint-seed dealing, the only dealing offered from here (the room was announced as an older koikoi).</source>
            <translation>断られました：相手は非公開の配りだけで、両者のシードによる配りを断りました。こちらが出したのはそれだけです（この部屋は旧版として告知されていました）。</translation>
        </message>
        <message>
            <source>Refused: the other side offers only joint-seed dealing, from which either program can compute the other's hand and the stock. This side deals privately only; to allow it, tick “Allow joint-seed dealing” (for older koikoi).</source>
            <translation>断りました：相手は両者のシードによる配りしか出していません。そのシードからは、どちらのプログラムも相手の手札と山札を計算できます。こちらは非公開の配りだけです。許可するには「両者のシードによる配りを許可」（旧版用）にチェックを入れてください。</translation>
        </message>
        <message>
            <source>the other player</source>
            <translation>相手</translation>
        </message>
        <message>
            <source>You said the four cards differ: the match did not start.</source>
            <translation>4枚の札が違うと答えたので、対戦は始まりませんでした。</translation>
        </message>
        <message>
            <source>The other player saw different cards: someone may be between you. The match did not start.</source>
            <translation>相手には違う札が見えていました。誰かが間に入っているかもしれません。対戦は始まりませんでした。</translation>
        </message>
        <message>
            <source>The other player left before the match started.</source>
            <translation>対戦が始まる前に相手が抜けました。</translation>
        </message>
        <message>
            <source>The connection was lost before the match started.</source>
            <translation>対戦が始まる前に接続が切れました。</translation>
        </message>
        <message>
            <source>The match did not start: {0}</source>
            <translation>対戦は始まりませんでした：{0}</translation>
        </message>
        <message>
            <source>The coin is tossed: you are the first dealer (oya).</source>
            <translation>コイントスの結果：あなたが最初の親です。</translation>
        </message>
        <message>
            <source>The coin is tossed: {0} is the first dealer (oya).</source>
            <translation>コイントスの結果：{0}さんが最初の親です。</translation>
        </message>
        <message>
            <source>Proven by the join code: {0}'s key {1} is the one the code names.</source>
            <translation>参加コードで確認済み：{0}さんの鍵 {1} はコードが示すものと同じです。</translation>
        </message>
        <message>
            <source>Known player: {0}, the key you met before.</source>
            <translation>前に対戦した相手です：{0}、前と同じ鍵です。</translation>
        </message>
        <message>
            <source>New player: your first meeting. Compare the four cards with {0}.</source>
            <translation>初めての相手です。4枚の札を{0}さんと見比べてください。</translation>
        </message>
        <message>
            <source>Opponent</source>
            <translation>対戦相手</translation>
        </message>
        <message>
            <source>Opponent's identity</source>
            <translation>相手の身元</translation>
        </message>
        <message>
            <source>The settings both signed</source>
            <translation>2人が署名した設定</translation>
        </message>
        <message>
            <source>Warning about this player</source>
            <translation>この相手についての注意</translation>
        </message>
        <message>
            <source>Proven by the join code</source>
            <translation>参加コードで確認済み</translation>
        </message>
        <message>
            <source>The coin toss</source>
            <translation>コイントス</translation>
        </message>
        <message>
            <source>Do you both see these four cards, in this order? Ask the other player.</source>
            <translation>2人ともこの4枚の札がこの順に見えていますか？ 相手にたずねてください。</translation>
        </message>
        <message>
            <source>同じ · The same four cards</source>
            <translation>同じ4枚です</translation>
        </message>
        <message>
            <source>We see the same four cards</source>
            <translation>同じ4枚の札が見えている</translation>
        </message>
        <message>
            <source>They differ</source>
            <translation>違う</translation>
        </message>
        <message>
            <source>The four cards differ</source>
            <translation>4枚の札が違う</translation>
        </message>
        <message>
            <source>Leave before the match</source>
            <translation>対戦の前に抜ける</translation>
        </message>
        <message>
            <source>Status</source>
            <translation>状態</translation>
        </message>
        <message>
            <source>Before the match with {0}</source>
            <translation>{0}さんとの対戦の前に</translation>
        </message>
        <message>
            <source>New player: your first meeting.</source>
            <translation>初めての相手です。</translation>
        </message>
        <message>
            <source>{0} · key {1}</source>
            <translation>{0} · 鍵 {1}</translation>
        </message>
        <message>
            <source>private room</source>
            <translation>鍵付きの部屋</translation>
        </message>
        <message>
            <source>Signed by both: {0}</source>
            <translation>2人の署名済み：{0}</translation>
        </message>
        <message>
            <source>Drawing the four cards to compare…</source>
            <translation>見比べる4枚の札を引いています…</translation>
        </message>
        <message>
            <source>If the code came to you through a channel you trust (a call, a chat you know), nobody sits between you: the four-card check is already passed. Confirm to go on.</source>
            <translation>信頼できる経路（電話や、よく知っているチャット）でコードを受け取ったなら、間に誰もいません。4枚の札の確認はもう済んでいます。確認して進んでください。</translation>
        </message>
        <message>
            <source>{0} confirmed the four cards. Do you see the same four?</source>
            <translation>{0}さんが4枚の札を確かめました。あなたにも同じ4枚が見えますか？</translation>
        </message>
        <message>
            <source>Waiting for {0} to confirm the four cards…</source>
            <translation>{0}さんが4枚の札を確かめるのを待っています…</translation>
        </message>
        <message>
            <source>Waiting for {0} to confirm the four cards; then the coin is tossed…</source>
            <translation>{0}さんが4枚の札を確かめるのを待っています。そのあとコイントスです…</translation>
        </message>
    </context>
    <context>
        <name>PrematchPanel</name>
        <message numerus="yes">
            <source>Careful: {0} abandoned %n toss(es) after seeing the result.</source>
            <translation>
                <numerusform>注意：{0}さんは結果を見てからコイントスを%n回投げ出しています。</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ReplayViewer</name>
        <message>
            <source>Network game vs {0}</source>
            <translation>{0}さんとのネット対戦</translation>
        </message>
        <message>
            <source>Practice vs {0}</source>
            <translation>練習（コンピューター：{0}）</translation>
        </message>
        <message>
            <source>A recorded match</source>
            <translation>記録された対戦</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>終了</translation>
        </message>
        <message>
            <source>unfinished</source>
            <translation>途中</translation>
        </message>
        <message>
            <source>Replay · {0} · {1}–{2} · {3} · {4}</source>
            <translation>再生 · {0} · {1}–{2} · {3} · {4}</translation>
        </message>
        <message>
            <source>Signed record: signatures, hashes and moves check.</source>
            <translation>署名付きの記録：署名・ハッシュ・手順はすべて正しいです。</translation>
        </message>
        <message>
            <source>Signed record does not check: {0}</source>
            <translation>署名付きの記録が確認できません：{0}</translation>
        </message>
        <message>
            <source>What happened</source>
            <translation>経過</translation>
        </message>
        <message>
            <source>◀◀ Deal</source>
            <translation>◀◀ 前の配り</translation>
        </message>
        <message>
            <source>Previous deal (Page Up)</source>
            <translation>前の配り（Page Up）</translation>
        </message>
        <message>
            <source>⇤ Start</source>
            <translation>⇤ 最初</translation>
        </message>
        <message>
            <source>Start of the deal (Home)</source>
            <translation>配りの最初（Home）</translation>
        </message>
        <message>
            <source>◀ Back</source>
            <translation>◀ 戻る</translation>
        </message>
        <message>
            <source>Back one move (Left)</source>
            <translation>1手戻る（←）</translation>
        </message>
        <message>
            <source>Forward ▶</source>
            <translation>進む ▶</translation>
        </message>
        <message>
            <source>Forward one move (Right)</source>
            <translation>1手進む（→）</translation>
        </message>
        <message>
            <source>End ⇥</source>
            <translation>最後 ⇥</translation>
        </message>
        <message>
            <source>End of the deal (End)</source>
            <translation>配りの最後（End）</translation>
        </message>
        <message>
            <source>Deal ▶▶</source>
            <translation>次の配り ▶▶</translation>
        </message>
        <message>
            <source>Next deal (Page Down)</source>
            <translation>次の配り（Page Down）</translation>
        </message>
        <message>
            <source>Jump to a deal</source>
            <translation>配りへ移動</translation>
        </message>
        <message>
            <source>Hands shown</source>
            <translation>手札の見せ方</translation>
        </message>
        <message>
            <source>Both hands open</source>
            <translation>両方の手札を表に</translation>
        </message>
        <message>
            <source>As you saw it</source>
            <translation>あなたから見たとおり</translation>
        </message>
        <message>
            <source>As the computer saw it</source>
            <translation>コンピューターから見たとおり</translation>
        </message>
        <message>
            <source>As {0} saw it</source>
            <translation>{0}さんから見たとおり</translation>
        </message>
        <message>
            <source>Round {0}, deal {1}</source>
            <translation>第{0}回戦・{1}回目の配り</translation>
        </message>
        <message>
            <source>Round {0}</source>
            <translation>第{0}回戦</translation>
        </message>
        <message>
            <source>あなた You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>コンピューター Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>Round {0} of {1}</source>
            <translation>第{0}回戦（全{1}回戦）</translation>
        </message>
        <message>
            <source>Multiplier ×{0} · koikoi calls: {1}</source>
            <translation>倍率 ×{0} · こいこい：{1}回</translation>
        </message>
        <message>
            <source>Dealt privately, never shown: only your view of this deal is known.</source>
            <translation>非公開で配られ、最後まで開かれなかった配りです。分かっているのはあなたから見えた札だけです。</translation>
        </message>
        <message>
            <source>Deal {0} of {1} · move {2} of {3}</source>
            <translation>配り {0}/{1} · 手 {2}/{3}</translation>
        </message>
        <message>
            <source>No deal was played.</source>
            <translation>配りはありません。</translation>
        </message>
        <message>
            <source>The round is won.</source>
            <translation>この回は勝負がつきました。</translation>
        </message>
        <message>
            <source>A dealt-hand yaku (teyaku) ends the round.</source>
            <translation>手役でこの回が終わりました。</translation>
        </message>
        <message>
            <source>The round is a draw (nagare).</source>
            <translation>この回は流れです。</translation>
        </message>
        <message>
            <source>Dealt again: four cards of one month.</source>
            <translation>同じ月の札が4枚そろったので配り直しました。</translation>
        </message>
        <message>
            <source>The record leaves the last turn's shobu unwritten.</source>
            <translation>記録には最後の手番の勝負が書かれていません。</translation>
        </message>
    </context>
    <context>
        <name>Rooms</name>
        <message>
            <source>in play</source>
            <translation>対戦中</translation>
        </message>
        <message>
            <source>Room</source>
            <translation>部屋</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状態</translation>
        </message>
        <message>
            <source>{0} rounds · doubling at 8+</source>
            <translation>{0}回戦 · 「8点以上×2」</translation>
        </message>
        <message>
            <source>{0} rounds · no doubling</source>
            <translation>{0}回戦 · 「8点で倍なし」</translation>
        </message>
        <message>
            <source>no clock</source>
            <translation>時間制限なし</translation>
        </message>
        <message>
            <source>{0} s a move</source>
            <translation>1手{0}秒</translation>
        </message>
        <message>
            <source>{0} s + {1}</source>
            <translation>{0}秒＋{1}</translation>
        </message>
        <message>
            <source>{0} s a move + {1} reserve</source>
            <translation>1手{0}秒＋予備{1}</translation>
        </message>
        <message>
            <source>joint seed only</source>
            <translation>両者のシードのみ</translation>
        </message>
        <message>
            <source>joint seed allowed</source>
            <translation>両者のシードも可</translation>
        </message>
        <message>
            <source>open</source>
            <translation>募集中</translation>
        </message>
        <message>
            <source>Host</source>
            <translation>ホスト</translation>
        </message>
        <message>
            <source>Settings</source>
            <translation>設定</translation>
        </message>
        <message>
            <source>(untitled)</source>
            <translation>（名前なし）</translation>
        </message>
        <message>
            <source>(private)</source>
            <translation>（鍵付き）</translation>
        </message>
        <message>
            <source>⚠ same title as another room, from another host: compare the fingerprints</source>
            <translation>⚠ 別のホストの部屋と同じ名前です。入る前に鍵を見比べてください</translation>
        </message>
        <message>
            <source>host {0}</source>
            <translation>ホスト：{0}</translation>
        </message>
        <message>
            <source>fingerprint {0}</source>
            <translation>鍵 {0}</translation>
        </message>
        <message>
            <source>private: a password is needed</source>
            <translation>鍵付き：パスワードが必要</translation>
        </message>
    </context>
    <context>
        <name>RoundResultPanel</name>
        <message>
            <source>You win round {0}! 勝ち</source>
            <translation>第{0}回戦はあなたの勝ち！</translation>
        </message>
        <message>
            <source>The computer wins round {0}</source>
            <translation>第{0}回戦はコンピューターの勝ち</translation>
        </message>
        <message>
            <source>{name} wins round {0}</source>
            <translation>第{0}回戦は{name}さんの勝ち</translation>
        </message>
        <message>
            <source>You called 「勝負」 (shobu).</source>
            <translation>あなたが「勝負」しました。</translation>
        </message>
        <message>
            <source>The computer called 「勝負」 (shobu); your yaku count for nothing.</source>
            <translation>コンピューターが「勝負」しました。あなたの役は0点です。</translation>
        </message>
        <message>
            <source>{name} called 「勝負」 (shobu); your yaku count for nothing.</source>
            <translation>{name}さんが「勝負」しました。あなたの役は0点です。</translation>
        </message>
        <message>
            <source>The computer called 「勝負」 (shobu).</source>
            <translation>コンピューターが「勝負」しました。</translation>
        </message>
        <message>
            <source>{name} called 「勝負」 (shobu).</source>
            <translation>{name}さんが「勝負」しました。</translation>
        </message>
        <message>
            <source>Teyaku! 手役 — round {0}</source>
            <translation>手役！ — 第{0}回戦</translation>
        </message>
        <message>
            <source>Your dealt hand is a yaku: the round ends before anyone plays.</source>
            <translation>配られた手札が手役です。打ち始める前にこの回は終わります。</translation>
        </message>
        <message>
            <source>The computer's dealt hand is a yaku: the round ends before anyone plays.</source>
            <translation>コンピューターの配られた手札が手役です。打ち始める前にこの回は終わります。</translation>
        </message>
        <message>
            <source>{name}'s dealt hand is a yaku: the round ends before anyone plays.</source>
            <translation>{name}さんの配られた手札が手役です。打ち始める前にこの回は終わります。</translation>
        </message>
        <message>
            <source>Round {0}: nagare 流れ</source>
            <translation>第{0}回戦：流れ</translation>
        </message>
        <message>
            <source>Both hands are empty and nobody called shobu: the round is drawn and nobody scores.</source>
            <translation>誰も勝負しないまま2人の手札がなくなりました。この回は流れで、どちらにも点数は入りません。</translation>
        </message>
        <message>
            <source>Redeal 配り直し</source>
            <translation>配り直し</translation>
        </message>
        <message>
            <source>All four cards of one month were dealt to the field, so the cards are shuffled and dealt again by the same oya. A redeal is not a round.</source>
            <translation>場札に同じ月の札が4枚そろって配られたので、同じ親が札を切り直して配り直します。配り直しは回戦数に数えません。</translation>
        </message>
        <message>
            <source>手四 Teshi: all four cards of one month in the dealt hand.</source>
            <translation>手四（てし）：同じ月の札4枚が、すべて手札にあります。</translation>
        </message>
        <message>
            <source>くっつき Kuttsuki: four pairs of months in the dealt hand.</source>
            <translation>くっつき：同じ月の札2枚ずつの組が、手札に4組あります。</translation>
        </message>
        <message>
            <source>The computer pays you</source>
            <translation>コンピューターがあなたに支払い</translation>
        </message>
        <message>
            <source>{name} pays you</source>
            <translation>{name}さんがあなたに支払い</translation>
        </message>
        <message>
            <source>You pay the computer</source>
            <translation>あなたがコンピューターに支払い</translation>
        </message>
        <message>
            <source>You pay {name}</source>
            <translation>あなたが{name}さんに支払い</translation>
        </message>
        <message numerus="yes">
            <source>Capped: only %n point(s) left to pay.</source>
            <translation>
                <numerusform>持ち点が残り%n点なので、支払いはそこまでです。</numerusform>
            </translation>
        </message>
        <message>
            <source>You stay oya (親).</source>
            <translation>あなたが引き続き親です。</translation>
        </message>
        <message>
            <source>The computer stays oya (親).</source>
            <translation>コンピューターが引き続き親です。</translation>
        </message>
        <message>
            <source>{name} stays oya (親).</source>
            <translation>{name}さんが引き続き親です。</translation>
        </message>
        <message>
            <source>All four cards of {0} lay on the field.</source>
            <translation>{0}の札4枚が場にそろいました。</translation>
        </message>
        <message>
            <source>See the match result</source>
            <translation>対戦の結果を見る</translation>
        </message>
        <message>
            <source>Deal again</source>
            <translation>配り直す</translation>
        </message>
        <message>
            <source>Next round ({0} of {1})</source>
            <translation>次の回戦へ（第{0}回戦・全{1}回戦）</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>{0}: stakes {1} to {2}</source>
            <translation>{0}：持ち点 {1} → {2}</translation>
        </message>
    </context>
    <context>
        <name>Rules</name>
        <message>
            <source>{0} + {1}</source>
            <translation>{0}＋{1}</translation>
        </message>
        <message>
            <source>all 5 lights</source>
            <translation>光札5枚すべて</translation>
        </message>
        <message>
            <source>4 lights without the rain man</source>
            <translation>雨（柳に小野道風）を除く光札4枚</translation>
        </message>
        <message>
            <source>4 lights with the rain man</source>
            <translation>雨（柳に小野道風）を含む光札4枚</translation>
        </message>
        <message>
            <source>3 lights without the rain man (rain man + 2 lights is nothing)</source>
            <translation>雨を除く光札3枚（雨とほかの光札2枚では役にならない）</translation>
        </message>
        <message>
            <source>boar, deer, butterflies; +1 per other tane</source>
            <translation>萩に猪・紅葉に鹿・牡丹に蝶。ほかのタネ札1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>the 3 red poem ribbons; +1 per other ribbon</source>
            <translation>文字の入った赤い短冊3枚。ほかの短冊1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>the 3 blue ribbons; +1 per other ribbon</source>
            <translation>青い短冊3枚。ほかの短冊1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>all 6; replaces both; +1 per other ribbon</source>
            <translation>赤短と青短の6枚。2つの役の代わりに数え、ほかの短冊1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>5 tane (the sake cup counts); +1 per card beyond 5</source>
            <translation>タネ札5枚（菊に盃も数える）。5枚を超える1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>5 ribbons; +1 per card beyond 5</source>
            <translation>短冊5枚。5枚を超える1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>10 plains (not the sake cup); +1 per card beyond 10</source>
            <translation>カス札10枚（菊に盃は数えない）。10枚を超える1枚ごとに＋1点</translation>
        </message>
        <message>
            <source>dealt hand: all 4 cards of a month</source>
            <translation>配られた手札に同じ月の札4枚</translation>
        </message>
        <message>
            <source>dealt hand: four pairs of months</source>
            <translation>配られた手札に同じ月2枚ずつの組が4組</translation>
        </message>
        <message>
            <source>{0} or more</source>
            <translation>{0}以上</translation>
        </message>
    </context>
    <context>
        <name>RulesPage</name>
        <message>
            <source>The yaku table (役, R6)</source>
            <translation>役の一覧</translation>
        </message>
        <message>
            <source>Teyaku (手役): a dealt hand</source>
            <translation>手役</translation>
        </message>
        <message>
            <source>Redeals (配り直し)</source>
            <translation>配り直し</translation>
        </message>
        <message>
            <source>Koikoi or shobu (こいこい・勝負)</source>
            <translation>こいこいか勝負か</translation>
        </message>
        <message>
            <source>Round points and doubling</source>
            <translation>点数計算と2倍</translation>
        </message>
        <message>
            <source>How these rules differ from Nintendo's</source>
            <translation>任天堂ルールとの違い</translation>
        </message>
        <message>
            <source>Yaku</source>
            <translation>役</translation>
        </message>
        <message>
            <source>役</source>
            <translation>役</translation>
        </message>
        <message>
            <source>Reading</source>
            <translation>読み</translation>
        </message>
        <message>
            <source>Points</source>
            <translation>点数</translation>
        </message>
        <message>
            <source>Condition</source>
            <translation>条件</translation>
        </message>
        <message>
            <source>~ : one more point for each extra card. Only the highest light yaku counts; all other yaku add up (a card may count in several).</source>
            <translation>〜：札が1枚増えるごとに1点加わります。光札の役は一番高いものだけを数え、ほかの役はすべて足し算です（1枚の札を複数の役に数えられます）。</translation>
        </message>
        <message>
            <source>The yaku table</source>
            <translation>役の一覧</translation>
        </message>
        <message>
            <source>{name} · {ja} ({reading}) · {points}</source>
            <translation>{name}（{reading}） · {points}</translation>
        </message>
        <message>
            <source>For example:</source>
            <translation>たとえば：</translation>
        </message>
        <message>
            <source>All of these:</source>
            <translation>次の札すべて：</translation>
        </message>
        <message>
            <source>and any {0} of these:</source>
            <translation>と、次の札のうち{0}枚：</translation>
        </message>
        <message>
            <source>Any {0} of these:</source>
            <translation>次の札のうち{0}枚：</translation>
        </message>
        <message>
            <source>One more point for each of these with them:</source>
            <translation>次の札が1枚加わるごとに＋1点：</translation>
        </message>
        <message>
            <source>{condition}: {cards}</source>
            <translation>{condition}：{cards}</translation>
        </message>
        <message>
            <source>Checked right after the deal, before anyone plays: a hand of all 4 cards of a month (teshi) or of four pairs of months (kuttsuki) wins {0} points at once and ends the round.</source>
            <translation>配られた直後、誰も札を出さないうちに確かめます。同じ月の札4枚がすべて手札にある「手四（てし）」か、同じ月の札2枚ずつの組が4組ある「くっつき」なら、すぐに{0}点で、その回は終わります。</translation>
        </message>
        <message>
            <source>A hand with 4 of a month and two more pairs is teshi. A hand scores one teyaku at most.</source>
            <translation>同じ月の4枚とほかの2組がそろった手札は、くっつきではなく手四として数えます。1つの手札で数える手役は1つだけです。</translation>
        </message>
        <message>
            <source>When both hands have teyaku, the oya's counts.</source>
            <translation>2人とも手役があるときは、親の手役を数えます。</translation>
        </message>
        <message>
            <source>The points go through the usual calculation: 6 is below 8 and no koikoi has been called, so they stay 6. The holder is the next oya.</source>
            <translation>手役の得点も、ふつうの回と同じように計算します。6点は8点に届かず、こいこいもまだ宣言されていないので、得点は6点のままです。次の回は手役のあった人が親になります。</translation>
        </message>
        <message>
            <source>All 4 cards of one month on the field: nobody could take them, so the cards are shuffled and dealt again by the same oya. A redeal is not a round.</source>
            <translation>場札に同じ月の札が4枚そろうと、それを取れる札はもう残っていません。同じ親が札を切り直して配り直します。配り直しは回戦数に数えません。</translation>
        </message>
        <message>
            <source>Four pairs on the field, or three of a month: play goes on.</source>
            <translation>場札が2枚ずつ4組のときや、同じ月の札が3枚のときは、そのまま始めます。</translation>
        </message>
        <message>
            <source>A deal that must be dealt again never scores a teyaku (the field is checked first).</source>
            <translation>配り直しになる配りでは、手役は数えません（先に場札を確かめます）。</translation>
        </message>
        <message>
            <source>When your yaku total rose at the end of your turn, choose: shobu (勝負) ends the round and you win it; koikoi (こいこい) plays on for more.</source>
            <translation>手番の終わりに役の合計点が上がっていたら、どちらかを選びます。勝負（しょうぶ）はその回を終わりにして自分の勝ちとし、こいこいはその回を続けてさらに高い点を狙います。</translation>
        </message>
        <message>
            <source>Shobu wins even if the opponent has yaku: they score nothing.</source>
            <translation>相手に役があっても、勝負すれば自分の勝ちです。相手は0点です。</translation>
        </message>
        <message>
            <source>Both players may call koikoi any number of times. After a koikoi you are asked again only when your total rises (a new yaku or one more card in a ~ yaku).</source>
            <translation>こいこいは2人とも何度でも宣言できます。こいこいのあとにまた選べるのは、合計点が上がったとき（新しい役ができたときか、〜の役の札が1枚増えたとき）だけです。</translation>
        </message>
        <message>
            <source>On the last turn, with both hands empty, only shobu is possible.</source>
            <translation>2人の手札がなくなる最後の手番では、勝負しか選べません。</translation>
        </message>
        <message>
            <source>If nobody calls shobu before both hands are empty, the round is a nagare (流れ): no points, and the oya stays.</source>
            <translation>誰も勝負しないまま2人の手札がなくなると、その回は流れ（ながれ）です。どちらにも点数は入らず、親はそのままです。</translation>
        </message>
        <message>
            <source>Base: the sum of the winner's yaku.</source>
            <translation>基本点：勝った人の役の点数の合計。</translation>
        </message>
        <message>
            <source>×2 when the base is {0} or more and 「8点以上で2倍」 (double at 8 or more) is on (a setting of the room, on by default).</source>
            <translation>基本点が{0}点以上で、「8点以上で2倍」がオンなら2倍（部屋の設定、初期設定はオン）。</translation>
        </message>
        <message>
            <source>× (koikoi calls this round by both players + 1): the multiplier is shared and counts for whoever wins, also for the player who called; it is back to ×1 next round.</source>
            <translation>×（その回の2人のこいこいの回数の合計＋1）：倍率は2人に共通で、こいこいした本人も含め、勝った方の得点に掛かります。次の回は×1に戻ります。</translation>
        </message>
        <message>
            <source>The loser pays the points, at most what they have left. Both start with {0}; at 0 the match ends at once; else after the last of 6 or 12 rounds the one with more points wins.</source>
            <translation>負けた人は、残りの持ち点を上限に得点を支払います。2人とも持ち点{0}点から始め、持ち点がなくなるとその時点で対戦は終わります。そうならなければ、6回戦か12回戦の最終回戦のあとで持ち点の多い人が勝ちです。</translation>
        </message>
        <message>
            <source>Examples: moon viewing, koikoi, then cherry-blossom viewing, shobu: 10 → ×2 (8 or more) → ×2 (one koikoi) = 40. Three lights, koikoi, then four lights: 8 × 2 × 2 = 32 (16 with doubling off). Rainy four lights alone: 7.</source>
            <translation>計算例：月見で一杯でこいこいし、花見で一杯もそろえて勝負：10点 → ×2（8点以上）→ ×2（こいこい1回）＝40点。三光でこいこいし、四光で勝負：8 × 2 × 2 ＝ 32点（2倍がオフなら16点）。雨四光だけなら7点です。</translation>
        </message>
        <message>
            <source>fixed</source>
            <translation>固定</translation>
        </message>
        <message>
            <source>Doubling high scores</source>
            <translation>高得点の倍付け</translation>
        </message>
        <message>
            <source>×2 at 7 points or more</source>
            <translation>合計7点以上で2倍</translation>
        </message>
        <message>
            <source>×2 at 7 is usual; some play without</source>
            <translation>7点以上で2倍が一般的。倍付けなしのルールも</translation>
        </message>
        <message>
            <source>×2 at 8 points or more</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>yes: on or off (on by default; 8 is fixed)</source>
            <translation>あり：「8点以上で2倍」のオン・オフ（初期設定はオン、8点は固定）</translation>
        </message>
        <message>
            <source>The koikoi multiplier</source>
            <translation>こいこいの倍率</translation>
        </message>
        <message>
            <source>if the other player wins after your koikoi, their points ×2</source>
            <translation>こいこいの後に相手が上がると、相手の点数が2倍</translation>
        </message>
        <message>
            <source>×2 once; ×2 for each koikoi (2, 4, 8); calls + 1</source>
            <translation>1回だけ2倍／こいこいのたびに2倍（2倍・4倍・8倍）／回数＋1倍</translation>
        </message>
        <message>
            <source>koikoi calls of both players + 1, for the round's winner</source>
            <translation>2人の宣言回数の合計＋1倍を、その回の勝者に</translation>
        </message>
        <message>
            <source>How many koikoi</source>
            <translation>こいこいの回数</translation>
        </message>
        <message>
            <source>after a koikoi the round ends at the next yaku of either player</source>
            <translation>こいこいの後、どちらかに役ができた時点でその回は終了</translation>
        </message>
        <message>
            <source>most let both call any number of times; some only once</source>
            <translation>2人とも何度でも宣言できるルールが多い。1回までとするルールも</translation>
        </message>
        <message>
            <source>both, any number of times</source>
            <translation>2人とも何度でも</translation>
        </message>
        <message>
            <source>The sake cup (菊に盃) as a plain</source>
            <translation>菊に盃をカスにも数えるか</translation>
        </message>
        <message>
            <source>counts (tane and plain)</source>
            <translation>数える（タネ札でありカス札でもある）</translation>
        </message>
        <message>
            <source>both; either one; tane only</source>
            <translation>両方に数える／どちらか一方／タネのみ</translation>
        </message>
        <message>
            <source>does not count (tane only)</source>
            <translation>数えない（タネ札のみ）</translation>
        </message>
        <message>
            <source>Cherry-blossom and moon viewing</source>
            <translation>花見酒・月見酒</translation>
        </message>
        <message>
            <source>5 points each</source>
            <translation>各5点</translation>
        </message>
        <message>
            <source>5 or 3; not played; only with another yaku; void by rain (雨流れ)</source>
            <translation>5点または3点／採用しない／ほかの役があるときだけ／雨流れ・霧流れで無効</translation>
        </message>
        <message>
            <source>5 points each, always</source>
            <translation>各5点（いつでも有効）</translation>
        </message>
        <message>
            <source>Boar-deer-butterflies and tane; red/blue ribbons and ribbons</source>
            <translation>猪鹿蝶とタネ、赤短・青短とタン</translation>
        </message>
        <message>
            <source>tane void with 猪鹿蝶; ribbons void with 赤短 or 青短</source>
            <translation>猪鹿蝶ができるとタネは無効、赤短か青短ができるとタンは無効</translation>
        </message>
        <message>
            <source>void, or both count</source>
            <translation>無効とするルールと、両方数えるルール</translation>
        </message>
        <message>
            <source>both count (with their extra-card points)</source>
            <translation>両方数える（枚数による加点も）</translation>
        </message>
        <message>
            <source>Teyaku (teshi, kuttsuki)</source>
            <translation>手役（手四・くっつき）</translation>
        </message>
        <message>
            <source>6 points, the round ends</source>
            <translation>6点で、その回は終了</translation>
        </message>
        <message>
            <source>the same; or no teyaku and a redeal</source>
            <translation>同じ。手役を採用せずに配り直すルールも</translation>
        </message>
        <message>
            <source>Both players have teyaku</source>
            <translation>2人とも手役</translation>
        </message>
        <message>
            <source>not stated</source>
            <translation>記載なし</translation>
        </message>
        <message>
            <source>nobody scores</source>
            <translation>どちらにも点数は入らない</translation>
        </message>
        <message>
            <source>the oya's teyaku counts</source>
            <translation>親の手役を数える</translation>
        </message>
        <message>
            <source>Four of a month on the field</source>
            <translation>場に同じ月の札4枚</translation>
        </message>
        <message>
            <source>redeal</source>
            <translation>配り直し</translation>
        </message>
        <message>
            <source>redeal; the oya takes the four; the oya wins 6</source>
            <translation>配り直し／親が4枚を取る／親が6点で上がる</translation>
        </message>
        <message>
            <source>Four pairs on the field</source>
            <translation>場札が2枚ずつ4組</translation>
        </message>
        <message>
            <source>redeal when the cards are lopsided (only four of a month is given)</source>
            <translation>「札が偏っている場合」は配り直し（例に挙がるのは4枚そろいのみ）</translation>
        </message>
        <message>
            <source>redeal; or play on</source>
            <translation>配り直し／そのまま続行</translation>
        </message>
        <message>
            <source>play on</source>
            <translation>そのまま続行</translation>
        </message>
        <message>
            <source>Playing a card that matches nothing when you could capture</source>
            <translation>取れる札があるのに、合わない札を出す</translation>
        </message>
        <message>
            <source>allowed; in English guides often not</source>
            <translation>自由。英語圏には「必ず取る」とする解説も</translation>
        </message>
        <message>
            <source>allowed (a matching card always captures)</source>
            <translation>自由（合う札を出したら必ず取る）</translation>
        </message>
        <message>
            <source>The first oya</source>
            <translation>最初の親</translation>
        </message>
        <message>
            <source>each turns a card: the earlier month</source>
            <translation>札を1枚ずつめくり、月の早い方</translation>
        </message>
        <message>
            <source>the same; same month: the higher card</source>
            <translation>同じ。同じ月なら点数の高い札</translation>
        </message>
        <message>
            <source>earlier month; same month: the higher card (online: a coin toss)</source>
            <translation>月の早い方。同じ月なら点数の高い札（オンラインはコイントス）</translation>
        </message>
        <message>
            <source>The next oya</source>
            <translation>次の回の親</translation>
        </message>
        <message>
            <source>the round's winner</source>
            <translation>その回の勝者</translation>
        </message>
        <message>
            <source>the winner, or in turn</source>
            <translation>勝者、または交互</translation>
        </message>
        <message>
            <source>A round without yaku</source>
            <translation>役ができずに終わった回</translation>
        </message>
        <message>
            <source>no game; the oya changes</source>
            <translation>ノーゲームで、親を交代</translation>
        </message>
        <message>
            <source>no points (the oya stays or changes); oya-ken; tsukazu</source>
            <translation>点数なし（親は継続か交代）／親権で親が得点／つかずで子が得点</translation>
        </message>
        <message>
            <source>no points; the oya stays</source>
            <translation>点数なし。親はそのまま</translation>
        </message>
        <message>
            <source>Rounds</source>
            <translation>回戦数</translation>
        </message>
        <message>
            <source>12</source>
            <translation>12回戦</translation>
        </message>
        <message>
            <source>12 (a year), 6 (han-don), 3 (a season), or to a target score</source>
            <translation>12回戦（1年）・6回戦（半どん）・3回戦（1季）、または目標点まで</translation>
        </message>
        <message>
            <source>6 or 12</source>
            <translation>6回戦か12回戦</translation>
        </message>
        <message>
            <source>yes: 6 (by default) or 12</source>
            <translation>あり：6回戦（初期設定）か12回戦</translation>
        </message>
        <message>
            <source>Keeping score</source>
            <translation>点数の数え方</translation>
        </message>
        <message>
            <source>add up each round; after 12 rounds the higher total wins</source>
            <translation>各回の得点を合計し、12回戦後に多い方が勝ち</translation>
        </message>
        <message>
            <source>add up; or the winner's points taken from the loser</source>
            <translation>合計する方式／勝者の得点を敗者から差し引く方式</translation>
        </message>
        <message>
            <source>25 points each; the loser pays (at most what is left); at 0 the match ends</source>
            <translation>持ち点25点から負けた側が支払う（残りの持ち点まで）。0点で終了</translation>
        </message>
        <message>
            <source>Yaku points</source>
            <translation>役の点数</translation>
        </message>
        <message>
            <source>five lights 10, four lights 8, rainy four lights 7, three lights 5 …</source>
            <translation>五光10点・四光8点・雨四光7点・三光5点など</translation>
        </message>
        <message>
            <source>five lights 15, three lights 6 …</source>
            <translation>五光15点・三光6点など</translation>
        </message>
        <message>
            <source>as Nintendo's</source>
            <translation>任天堂と同じ</translation>
        </message>
        <message>
            <source>Rule</source>
            <translation>ルール</translation>
        </message>
        <message>
            <source>Nintendo</source>
            <translation>任天堂</translation>
        </message>
        <message>
            <source>Local rules</source>
            <translation>ローカルルール</translation>
        </message>
        <message>
            <source>This game</source>
            <translation>このゲーム</translation>
        </message>
        <message>
            <source>Room setting</source>
            <translation>部屋の設定</translation>
        </message>
        <message>
            <source>Koi-Koi has no official rules; Nintendo's are the ones most often cited. In this game only the rounds and 「8点以上で2倍」 can be chosen, and both players of a network match always play by the same settings.</source>
            <translation>こいこいには全国共通の公式ルールがなく、任天堂の遊び方がよく参照されます。このゲームで選べるのは回戦数と「8点以上で2倍」だけで、オンライン対戦の2人は必ず同じ設定で対戦します。</translation>
        </message>
        <message>
            <source>The rules compared</source>
            <translation>こいこいのルール比較：任天堂・ローカルルール・このゲーム</translation>
        </message>
    </context>
    <context>
        <name>ScoreCalculator</name>
        <message>
            <source>Score calculator</source>
            <translation>点数計算</translation>
        </message>
        <message>
            <source>得点計算 · Pick the cards the winner took, the koikoi calls made this round and the doubling setting.</source>
            <translation>得点計算 · 勝った人の取り札、その回のこいこいの回数、2倍の設定を選んでください。</translation>
        </message>
        <message>
            <source>Koikoi calls this round (both players)</source>
            <translation>この回のこいこいの回数（2人の合計）</translation>
        </message>
        <message>
            <source>Koikoi calls this round</source>
            <translation>この回のこいこいの回数</translation>
        </message>
        <message>
            <source>Double at 8 points or more (8点以上で2倍)</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>Clear the cards</source>
            <translation>札を選び直す</translation>
        </message>
        <message>
            <source>×2: the total is {0} or more</source>
            <translation>×2（合計{0}点以上）</translation>
        </message>
        <message>
            <source>not doubled</source>
            <translation>2倍なし</translation>
        </message>
        <message>
            <source>{0}, no yaku, 0 points</source>
            <translation>{0}、役なし、0点</translation>
        </message>
        <message>
            <source>{0}, base {1}, round points {2}</source>
            <translation>{0}、基本点{1}、この回の得点{2}</translation>
        </message>
        <message>
            <source>No yaku: this pile scores nothing.</source>
            <translation>役がないので、この取り札は0点です。</translation>
        </message>
        <message>
            <source>{0} picked</source>
            <translation>{0}を選択</translation>
        </message>
        <message>
            <source>Yaku total (base points): {0}</source>
            <translation>役の合計（基本点）：{0}</translation>
        </message>
        <message>
            <source>Doubling: {0}</source>
            <translation>2倍：{0}</translation>
        </message>
        <message>
            <source>Koikoi multiplier: ×{0}</source>
            <translation>こいこいの倍率：×{0}</translation>
        </message>
        <message>
            <source>Round points: {0}</source>
            <translation>この回の得点：{0}</translation>
        </message>
    </context>
    <context>
        <name>SeatBox</name>
        <message>
            <source>親 oya</source>
            <translation>親</translation>
        </message>
        <message>
            <source>Oya: plays first this round</source>
            <translation>親：この回で先に打つ</translation>
        </message>
        <message>
            <source>points</source>
            <translation>点</translation>
        </message>
        <message>
            <source>Stakes: {0} points</source>
            <translation>持ち点：{0}点</translation>
        </message>
        <message>
            <source>「こいこい」 called ×{0}</source>
            <translation>「こいこい」×{0}</translation>
        </message>
        <message>
            <source>Total {0}</source>
            <translation>合計{0}点</translation>
        </message>
        <message>
            <source>No yaku yet</source>
            <translation>役はまだありません</translation>
        </message>
        <message>
            <source>Yaku held: {0}</source>
            <translation>できている役：{0}</translation>
        </message>
    </context>
    <context>
        <name>SidePanel</name>
        <message>
            <source>コンピューター Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>What happened</source>
            <translation>経過</translation>
        </message>
        <message>
            <source>あなた You</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>Menu</source>
            <translation>メニュー</translation>
        </message>
        <message>
            <source>Back to the start screen (the match is saved)</source>
            <translation>トップ画面に戻る（対戦は保存されます）</translation>
        </message>
        <message>
            <source>Help</source>
            <translation>ヘルプ</translation>
        </message>
        <message>
            <source>Rules and keys</source>
            <translation>ルールと操作</translation>
        </message>
        <message>
            <source>Assist</source>
            <translation>アシスト</translation>
        </message>
        <message>
            <source>Assist display: highlight cards that can capture</source>
            <translation>アシスト表示：取れる札を光らせる</translation>
        </message>
        <message>
            <source>End the match</source>
            <translation>対戦を終わらせる</translation>
        </message>
        <message>
            <source>Leave the match (asks first)</source>
            <translation>対戦をやめる（先に確認します）</translation>
        </message>
        <message>
            <source>Round {0} of {1}</source>
            <translation>第{0}回戦（全{1}回戦）</translation>
        </message>
        <message>
            <source>Multiplier ×{0} · koikoi calls: {1}</source>
            <translation>倍率 ×{0} · こいこい：{1}回</translation>
        </message>
        <message>
            <source>on</source>
            <translation>オン</translation>
        </message>
        <message>
            <source>off</source>
            <translation>オフ</translation>
        </message>
        <message>
            <source>Double at 8 or more: {0} · a network match with {1}</source>
            <translation>8点以上2倍：{0}・{1}さんと対戦</translation>
        </message>
        <message>
            <source>Double at 8 or more: {0} · computer: {1}</source>
            <translation>8点以上2倍：{0}・強さ：{1}</translation>
        </message>
    </context>
    <context>
        <name>SoundControls</name>
        <message>
            <source>音 · Sound</source>
            <translation>サウンド</translation>
        </message>
        <message>
            <source>Play sounds (cards, yaku, calls, your turn)</source>
            <translation>効果音を鳴らす（札・役・こいこい・手番）</translation>
        </message>
        <message>
            <source>Sounds on</source>
            <translation>効果音</translation>
        </message>
        <message>
            <source>Volume</source>
            <translation>音量</translation>
        </message>
        <message>
            <source>Sound volume</source>
            <translation>効果音の音量</translation>
        </message>
        <message>
            <source>{0} %</source>
            <translation>{0}%</translation>
        </message>
    </context>
    <context>
        <name>StampRow</name>
        <message>
            <source>Send the stamp “{0}” ({1})</source>
            <translation>スタンプ「{0}」を送る（{1}）</translation>
        </message>
        <message>
            <source>Stamp: {0} ({1})</source>
            <translation>スタンプ：{0}（{1}）</translation>
        </message>
        <message>
            <source>Good luck!</source>
            <translation>よろしくお願いします</translation>
        </message>
        <message>
            <source>Thank you for the game</source>
            <translation>ありがとうございました</translation>
        </message>
        <message>
            <source>Nice move!</source>
            <translation>いい手！</translation>
        </message>
        <message>
            <source>One moment</source>
            <translation>ちょっと待って</translation>
        </message>
        <message>
            <source>So close!</source>
            <translation>おしい！</translation>
        </message>
        <message>
            <source>You: {0}</source>
            <translation>あなた「{0}」</translation>
        </message>
        <message>
            <source>{0}: {1}</source>
            <translation>{0}「{1}」</translation>
        </message>
    </context>
    <context>
        <name>StartScreen</name>
        <message>
            <source>Koi-Koi · the hanafuda game for two</source>
            <translation>2人で遊ぶ花札</translation>
        </message>
        <message>
            <source>Notice</source>
            <translation>お知らせ</translation>
        </message>
        <message>
            <source>Resume the saved match</source>
            <translation>保存した対戦を再開する</translation>
        </message>
        <message>
            <source>Resume the network match</source>
            <translation>通信対局を再開する</translation>
        </message>
        <message>
            <source>練習  Practice
6 rounds against the computer</source>
            <translation>練習　コンピューターと6回戦</translation>
        </message>
        <message>
            <source>Practice: 6 rounds against the computer</source>
            <translation>練習：コンピューターと6回戦</translation>
        </message>
        <message>
            <source>対戦  Play a person
on the local network or by address</source>
            <translation>対戦
ローカルネットワークかアドレスで</translation>
        </message>
        <message>
            <source>Play a person: the lobby</source>
            <translation>人と対戦：ロビー</translation>
        </message>
        <message>
            <source>Rules and keys</source>
            <translation>ルールと操作</translation>
        </message>
        <message>
            <source>Score calculator</source>
            <translation>点数計算</translation>
        </message>
        <message>
            <source>Statistics</source>
            <translation>統計</translation>
        </message>
        <message>
            <source>Statistics of practice matches (Ctrl+T)</source>
            <translation>練習対局の統計（Ctrl+T）</translation>
        </message>
        <message>
            <source>Quit</source>
            <translation>終了</translation>
        </message>
        <message>
            <source>Language of the app</source>
            <translation>アプリの言語</translation>
        </message>
        <message>
            <source>System language</source>
            <translation>システムの言語</translation>
        </message>
        <message>
            <source>Yaku</source>
            <translation>役</translation>
        </message>
        <message>
            <source>The rules with card pictures</source>
            <translation>札の絵で見るルール</translation>
        </message>
        <message>
            <source>Cards</source>
            <translation>札</translation>
        </message>
        <message>
            <source>The 48 cards by month</source>
            <translation>月ごとの48枚の札</translation>
        </message>
        <message>
            <source>Glossary</source>
            <translation>用語集</translation>
        </message>
        <message>
            <source>Glossary of Japanese terms</source>
            <translation>こいこいの用語集</translation>
        </message>
        <message>
            <source>Display</source>
            <translation>表示</translation>
        </message>
        <message>
            <source>Display options</source>
            <translation>表示設定</translation>
        </message>
        <message>
            <source>Practice settings</source>
            <translation>練習の設定</translation>
        </message>
        <message>
            <source>コンピューターと練習 · Practice settings</source>
            <translation>コンピューターと練習 · 設定</translation>
        </message>
        <message>
            <source>Rounds</source>
            <translation>回戦数</translation>
        </message>
        <message>
            <source>{0} rounds</source>
            <translation>{0}回戦</translation>
        </message>
        <message>
            <source>Rounds: {0}</source>
            <translation>回戦数：{0}</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>Computer level: {0}</source>
            <translation>コンピューターの強さ：{0}</translation>
        </message>
        <message>
            <source>Double at 8 points or more (8点以上で2倍)</source>
            <translation>8点以上で2倍</translation>
        </message>
        <message>
            <source>Double the round's points at 8 or more</source>
            <translation>その回の得点が8点以上なら2倍にする</translation>
        </message>
        <message>
            <source>Assist display: cards that can capture glow</source>
            <translation>アシスト表示：取れる札が光る</translation>
        </message>
        <message>
            <source>Assist display</source>
            <translation>アシスト表示</translation>
        </message>
        <message>
            <source>Start a match with these settings</source>
            <translation>この設定で対戦を始める</translation>
        </message>
        <message>
            <source>A beginner: takes what it can, likes lights and animals, sees no yaku coming and often says koikoi.</source>
            <translation>初心者：取れる札を取り、光札やタネ札を好みますが、役が近づくのは見えず、よく「こいこい」と言います。</translation>
        </message>
        <message>
            <source>A club player: builds towards yaku, blocks yours and counts the cards in view; answers at once.</source>
            <translation>経験者：役を狙い、あなたの役を邪魔し、見えている札を数えます。すぐに打ちます。</translation>
        </message>
        <message>
            <source>Plays each choice out on hundreds of deals you could hold, weighing the match score and the stakes.</source>
            <translation>あなたの手札としてありうる何百通りもの配りで一手ごとに最後まで打ってみて、点差と持ち点を考えて選びます。</translation>
        </message>
        <message>
            <source>Hard's search, with your hand read from every card you played this round; thinks up to a third of a second.</source>
            <translation>上級と同じ読みに加え、この局であなたが打ったすべての札からあなたの手札を推し量ります。一手に最大で約0.3秒考えます。</translation>
        </message>
        <message>
            <source>Earlier matches</source>
            <translation>これまでの対局</translation>
        </message>
        <message>
            <source>これまでの対局 · Earlier matches</source>
            <translation>これまでの対局</translation>
        </message>
        <message>
            <source>View the selected match</source>
            <translation>選んだ対局を見る</translation>
        </message>
        <message>
            <source>View the selected match move by move</source>
            <translation>選んだ対局を1手ずつ見る</translation>
        </message>
        <message>
            <source>Resume the selected match</source>
            <translation>選んだ対局を再開する</translation>
        </message>
        <message>
            <source>Cut off mid-match: select it and resume it</source>
            <translation>対局の途中で切れました。選んで再開できます</translation>
        </message>
        <message>
            <source>Set aside: select it and resume it</source>
            <translation>中断中：選んで再開できます</translation>
        </message>
        <message>
            <source>続きから  Resume the match
round {0} of {1} · you {2} : {3} computer</source>
            <translation>続きから
第{0}回戦（全{1}回戦） · あなた {2} : {3} コンピューター</translation>
        </message>
        <message>
            <source>続きから  Resume the match with {0} — reconnect
round {1} of {2} · you {3} : {4}</source>
            <translation>続きから（{0} さんに再接続）
第{1}回戦（全{2}回戦） · あなた {3} : {4}</translation>
        </message>
        <message>
            <source>d MMM yyyy</source>
            <translation>yyyy年M月d日</translation>
        </message>
        <message>
            <source>finished</source>
            <translation>終了</translation>
        </message>
        <message>
            <source>set aside in round {0} of {1}</source>
            <translation>第{0}回戦（全{1}回戦）で中断</translation>
        </message>
        <message>
            <source>cut off: can be resumed</source>
            <translation>中断（再開できます）</translation>
        </message>
        <message>
            <source>ended early</source>
            <translation>途中で終了</translation>
        </message>
        <message>
            <source>Network game vs {0} · {1} · {2}–{3} · {4}</source>
            <translation>{0}さんとのネット対戦 · {1} · {2}–{3} · {4}</translation>
        </message>
        <message>
            <source>Practice vs {0} · {1} · {2}–{3} · {4}</source>
            <translation>練習（{0}） · {1} · {2}–{3} · {4}</translation>
        </message>
    </context>
    <context>
        <name>Statistics</name>
        <message>
            <source>The statistics could not be read; the file was moved to {0} and they start afresh.</source>
            <translation>統計を読み込めませんでした。ファイルは {0} に移し、統計は新しく始めます。</translation>
        </message>
        <message>
            <source>This match could not be added to the statistics: {0}</source>
            <translation>この対局を統計に加えられませんでした：{0}</translation>
        </message>
    </context>
    <context>
        <name>StatsPage</name>
        <message>
            <source>Statistics</source>
            <translation>統計</translation>
        </message>
        <message>
            <source>統計 · Statistics of practice against the computer</source>
            <translation>統計 · コンピューターとの練習</translation>
        </message>
        <message>
            <source>Notice</source>
            <translation>お知らせ</translation>
        </message>
        <message>
            <source>Back</source>
            <translation>戻る</translation>
        </message>
        <message>
            <source>Back to the start screen (Esc)</source>
            <translation>スタート画面に戻る（Esc）</translation>
        </message>
        <message>
            <source>The statistics cannot be read: {0}</source>
            <translation>統計を読み込めません：{0}</translation>
        </message>
        <message>
            <source>{0} %</source>
            <translation>{0}%</translation>
        </message>
        <message>
            <source>Computer</source>
            <translation>コンピューター</translation>
        </message>
        <message>
            <source>Matches</source>
            <translation>対局数</translation>
        </message>
        <message>
            <source>Wins</source>
            <translation>勝ち</translation>
        </message>
        <message>
            <source>Win
rate</source>
            <translation>勝率</translation>
        </message>
        <message>
            <source>Points
per round</source>
            <translation>1局あたり
の点</translation>
        </message>
        <message>
            <source>Koikoi
calls</source>
            <translation>こいこい
回数</translation>
        </message>
        <message>
            <source>Koikoi
paid</source>
            <translation>こいこい
成功</translation>
        </message>
        <message>
            <source>Best
streak</source>
            <translation>最多
連勝</translation>
        </message>
        <message>
            <source>Played alone</source>
            <translation>自力で</translation>
        </message>
        <message>
            <source>Matches played alone</source>
            <translation>待ったも助言もなしの対局</translation>
        </message>
        <message>
            <source>Matches by level</source>
            <translation>強さ別の対局</translation>
        </message>
        <message>
            <source>No practice match finished yet: finish one to see it here.</source>
            <translation>まだ終わった練習対局がありません。1局終えるとここに表示されます。</translation>
        </message>
        <message numerus="yes">
            <source>Best streak over all levels: %n match(es) won in a row</source>
            <translation>
                <numerusform>全レベルでの最高連勝：%n連勝</numerusform>
            </translation>
        </message>
        <message>
            <source>Points per round: stakes won less stakes lost, per round played. Koikoi paid: calls in rounds you went on to win. Only finished matches count.</source>
            <translation>1局あたりの点：得た点から失った点を引き、遊んだ局数で割ったもの。こいこい成功：こいこいしたあと、その局に勝った回数。最後まで終えた対局だけを数えます。</translation>
        </message>
        <message>
            <source>With undo or hints (counted apart)</source>
            <translation>待ったや助言あり（別に集計）</translation>
        </message>
        <message>
            <source>Matches played with undo or hints, counted apart</source>
            <translation>待ったや助言を使った対局（別に集計）</translation>
        </message>
        <message numerus="yes">
            <source>%n match(es) played with help</source>
            <translation>
                <numerusform>待ったや助言を使った対局：%n局</numerusform>
            </translation>
        </message>
        <message>
            <source>Matches with undo or hints by level</source>
            <translation>待ったや助言を使った強さ別の対局</translation>
        </message>
        <message>
            <source>Yaku made</source>
            <translation>できた役</translation>
        </message>
        <message>
            <source>Yaku made in rounds you won</source>
            <translation>勝った局でできた役</translation>
        </message>
        <message>
            <source>Yaku</source>
            <translation>役</translation>
        </message>
        <message>
            <source>In Japanese</source>
            <translation>読み</translation>
        </message>
        <message>
            <source>Times</source>
            <translation>回数</translation>
        </message>
        <message>
            <source>None yet</source>
            <translation>まだありません</translation>
        </message>
    </context>
    <context>
        <name>StockWidget</name>
        <message>
            <source>Stock (山札): {0} cards left</source>
            <translation>山札：残り{0}枚</translation>
        </message>
    </context>
    <context>
        <name>TableView</name>
        <message>
            <source>Table</source>
            <translation>卓</translation>
        </message>
        <message>
            <source>場札 Field</source>
            <translation>場札</translation>
        </message>
        <message>
            <source>The computer's hand</source>
            <translation>コンピューターの手札</translation>
        </message>
        <message>
            <source>{0}'s hand</source>
            <translation>{0}さんの手札</translation>
        </message>
        <message>
            <source>Field</source>
            <translation>場札</translation>
        </message>
        <message>
            <source>The computer's captures</source>
            <translation>コンピューターの取り札</translation>
        </message>
        <message>
            <source>{0}'s captures</source>
            <translation>{0}さんの取り札</translation>
        </message>
        <message>
            <source>Your captures</source>
            <translation>あなたの取り札</translation>
        </message>
        <message>
            <source>Your hand</source>
            <translation>あなたの手札</translation>
        </message>
        <message>
            <source>{0}, card {1} of {2}</source>
            <translation>{0}（{2}枚中{1}枚目）</translation>
        </message>
        <message>
            <source>Turned from the stock</source>
            <translation>山札からめくった札</translation>
        </message>
        <message>
            <source>Played</source>
            <translation>出した札</translation>
        </message>
    </context>
    <context>
        <name>TossPanel</name>
        <message>
            <source>Coin toss 親決め</source>
            <translation>親決め</translation>
        </message>
        <message>
            <source>Both apps drew a secret random number. The host committed to its number first, the joiner answered with its own, then the host revealed: neither side could steer the result.</source>
            <translation>2人のアプリがそれぞれ秘密の乱数を引きました。部屋を作った側が先に自分の数を約束し、入った側が自分の数で答え、そのあと部屋を作った側が数を明かしました。どちらも結果を操れません。</translation>
        </message>
        <message>
            <source>Coin toss</source>
            <translation>親決め</translation>
        </message>
        <message>
            <source>you</source>
            <translation>あなた</translation>
        </message>
        <message>
            <source>Host ({0}): {1}
Joiner ({2}): {3}</source>
            <translation>部屋を作った側（{0}）：{1}
入った側（{2}）：{3}</translation>
        </message>
        <message>
            <source>The toss makes you oya (親): you play first.</source>
            <translation>あなたが親です。先に打ちます。</translation>
        </message>
        <message>
            <source>The toss makes {0} oya (親): {0} plays first.</source>
            <translation>{0}さんが親です。{0}さんが先に打ちます。</translation>
        </message>
        <message>
            <source>Each deal is shuffled by both apps together from new secrets each draws for that deal (mental poker), not from these numbers: neither app can see the other's hand or the stock.</source>
            <translation>配りごとに、両方のアプリがその配りのために引く新しい秘密から一緒に札を切ります（メンタルポーカー）。この2つの数は使いません。相手の手札も山札も、どちらのアプリからも見えません。</translation>
        </message>
        <message>
            <source>The two numbers together also shuffle every deal of the match.</source>
            <translation>2つの数を合わせたものが、この対戦のすべての配りで札を切るのにも使われます。</translation>
        </message>
        <message>
            <source>Deal the cards</source>
            <translation>札を配る</translation>
        </message>
    </context>
    <context>
        <name>Undo</name>
        <message>
            <source>Undo: nothing was taken back.</source>
            <translation>待った：取り消すものはありませんでした。</translation>
        </message>
        <message>
            <source>Undo: your play of {0} is taken back.</source>
            <translation>待った：あなたの{0}の手を取り消しました。</translation>
        </message>
        <message>
            <source>Undo: your play of {0} and the draw of {1} are taken back.</source>
            <translation>待った：あなたの{0}の手と、山札から引いた{1}を取り消しました。</translation>
        </message>
        <message>
            <source>The computer's turn after it is taken back too.</source>
            <translation>そのあとのコンピューターの手番も取り消しました。</translation>
        </message>
        <message>
            <source>Play a card from your hand again.</source>
            <translation>もう一度、手札から1枚出してください。</translation>
        </message>
    </context>
    <context>
        <name>UndoControl</name>
        <message>
            <source>Undo ({0})</source>
            <translation>待った（{0}）</translation>
        </message>
        <message>
            <source>Take back your last turn ({0})</source>
            <translation>直前の自分の手番を取り消す（{0}）</translation>
        </message>
        <message>
            <source>Undo: take back your last turn ({0})</source>
            <translation>待った：直前の自分の手番を取り消す（{0}）</translation>
        </message>
    </context>
    <context>
        <name>Yaku</name>
        <message>
            <source>Five lights</source>
            <translation>五光</translation>
        </message>
        <message>
            <source>Four lights</source>
            <translation>四光</translation>
        </message>
        <message>
            <source>Rainy four lights</source>
            <translation>雨四光</translation>
        </message>
        <message>
            <source>Three lights</source>
            <translation>三光</translation>
        </message>
        <message>
            <source>Cherry-blossom viewing</source>
            <translation>花見で一杯</translation>
        </message>
        <message>
            <source>Moon viewing</source>
            <translation>月見で一杯</translation>
        </message>
        <message>
            <source>Boar, deer, butterflies</source>
            <translation>猪鹿蝶</translation>
        </message>
        <message>
            <source>Red poem ribbons</source>
            <translation>赤短</translation>
        </message>
        <message>
            <source>Blue ribbons</source>
            <translation>青短</translation>
        </message>
        <message>
            <source>Red and blue ribbons</source>
            <translation>赤短・青短</translation>
        </message>
        <message>
            <source>Five tane</source>
            <translation>タネ</translation>
        </message>
        <message>
            <source>Five ribbons</source>
            <translation>タン</translation>
        </message>
        <message>
            <source>Ten plains</source>
            <translation>カス</translation>
        </message>
        <message>
            <source>Four of a month in hand</source>
            <translation>手四</translation>
        </message>
        <message>
            <source>Four pairs in hand</source>
            <translation>くっつき</translation>
        </message>
        <message>
            <source>{0} ({1})</source>
            <translation>{0}（{1}）</translation>
        </message>
    </context>
</TS>
