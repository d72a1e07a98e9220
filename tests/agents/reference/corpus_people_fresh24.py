# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-fourth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a
helper session (branch ``i36-fresh24``) writing blind: it did not open the grammar (agents/), the apps'
phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, git history nor the rows of the
corpus tables — it read the eighth fresh set's module docstring (for the format and the rules), the
measuring helpers (``_rows``, ``_kind``, ``_check`` in test_corpus.py, ``_measure``, ``_label`` and the
``_DETERMINER`` regex in test_corpus_people.py, their bodies only) and the apps' manifests for their
bounds (focus up to 24 hours, quiz up to 1 hour; Notes has no start). One slip, said plainly: a grep
meant to find the table names in corpus_people_fresh8.py also printed most of that set's English rows
and two of its Chinese ones; none of them was copied or reworded here. It did not search the repository
for phrases and did not run the parser or the measure on these rows. Each row was labelled with what a
careful human assistant would do with the two timed apps installed (a focus timer and an arithmetic
quiz): an unclear request is ``ask`` or ``help``, never a guess. It is measured once, by someone else,
after all rows were written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions, jokes, greetings, negations, past tense, hypotheticals, someone else's doing, plans for
later, things it cannot do — reminders, alarms, pausing, Notes, quizzes on anything but the four
arithmetic kinds — and scores reported). An activity is written as the person would want it labelled,
cut from the request in their words. A length with a piece of work but no app named (“30 minutes on my
chemistry problem set”) is a focus start, since the quiz only does arithmetic; a lab or kitchen timer
that should call the person back is a reminder (``help``); “pause” is ``help``, not ``stop``.

Written as new voices — a paramedic between calls, a Mandarin teacher abroad, a crossword setter, a
marathon coach, a student working shifts in a convenience store, a Beijing taxi driver with 儿化音, a
Shanghainese grandma, a game modder, a legal secretary, a biology PhD timing lab steps, a person who
only sends very polite indirect requests, and someone who types only lowercase with no punctuation — on
phones and laptops: typos, slang, numbers as words and digits, emoji, mixed zh/en in both tables, some
traditional characters, context first, durations before or after the verb. The mix, per language: about
a third focus starts (with and without activity), a fifth quizzes, stops (also with both running,
stopping one and keeping the other), status, a fifth that must not act, a few asks and out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH24_EN = """
between calls, 15 min focus on incident reports | start | 900 | incident reports
back at the station. start a focus for 20 minutes, restocking checklist | start | 1200 | restocking checklist
20 minutes of focus on run reports before the next call | start | 1200 | run reports
Would it be at all possible to begin a forty-five minute focus session for my correspondence? Many thanks in advance. | start | 2700 | correspondence
if it isn't too much trouble, I'd appreciate a focus timer of 30 minutes for the quarterly filing | start | 1800 | quarterly filing
I'd be grateful for a 10-minute focus to sort my inbox. | start | 600 | sort my inbox
could you possibly set a focus for half an hour while I review the lease? | start | 1800 | review the lease
start focus 35 min grading hanzi quizzes | start | 2100 | grading hanzi quizzes
my HSK class is at 7 so focus 50 min on lesson prep | start | 3000 | lesson prep
start a twenty minute focus, marking pinyin homework | start | 1200 | marking pinyin homework
focus 30 min on my 汉字 practice | start | 1800 | 汉字 practice
1h focus please: clues for saturday's cryptic | start | 3600 | clues for saturday's cryptic
focus ninety minutes on the themed grid | start | 5400 | themed grid
let me focus 1.5h on clue-writing | start | 5400 | clue-writing
focus 25 minutes on taper plans for my runners | start | 1500 | taper plans for my runners
start a 2-hour focus: race-week logistics spreadsheet | start | 7200 | race-week logistics spreadsheet
got 40 mins before my shift at the konbini, focus on calc homework | start | 2400 | calc homework
ok 45 min focus for stocktake paperwork pls | start | 2700 | stocktake paperwork
break room focus 10 min vocab | start | 600 | vocab
modding session lol, focus 1h on the texture loader | start | 3600 | texture loader
pomo 45 balancing patch notes 🎮 | start | 2700 | balancing patch notes
focus sesh 2h, modding the UI | start | 7200 | modding the UI
start a 12 hour focus for the game jam | start | 43200 | game jam
Please start a focus of one hour and fifteen minutes for the deposition transcripts. | start | 4500 | deposition transcripts
focus 20 min — proofreading the Henderson brief | start | 1200 | proofreading the Henderson brief
focus for 5 hours on the appellate brief | start | 18000 | appellate brief
plates are incubating, focus 40 min writing up the methods section | start | 2400 | writing up the methods section
gel runs for 45 so focus for 45 mins on lit review | start | 2700 | lit review
timer for focus 50 minutes pls, PCR protocol | start | 3000 | PCR protocol
focus 1 hour 40 minutes on grant budget | start | 6000 | grant budget
focus for thirty minutes on my zine | start | 1800 | zine
need a focus timer 2 hrs for thesis chapter three | start | 7200 | thesis chapter three
strat a focsu session 25 mins for essay | start | 1500 | essay
Start focus for 3h on the annual report | start | 10800 | annual report
30 minutes on my chemistry problem set please | start | 1800 | chemistry problem set
just start a 15 minute focus nothing specific | start | 900 | -
Focus: 1 hour. | start | 3600 | -
quick 8 min focus 🙏 | start | 480 | -
focus for an hour and a half | start | 5400 | -
25-min focus, go | start | 1500 | -
between calls, quick times tables quiz 3 min to keep sharp | quiz | 180 | multiplication
drug calc practice — multiplication quiz 5 minutes | quiz | 300 | multiplication
mental arithmetic quiz for ten minutes please | quiz | 600 | mixed
my students need subtraction practice, run a 4 min quiz | quiz | 240 | subtraction
Would you be so kind as to set up an addition quiz lasting a quarter of an hour? | quiz | 900 | addition
Kindly start a multiplication test, twenty minutes. | quiz | 1200 | multiplication
quiz 2 min adding | quiz | 120 | addition
times tables 7 mins | quiz | 420 | multiplication
pace math for runners lol — mixed arithmetic quiz 6 minutes | quiz | 360 | mixed
start a maths quiz half an hour | quiz | 1800 | mixed
subtraction drill, 90 sec | quiz | 90 | subtraction
slow shift at the store, quiz me on making change — subtraction, 5 min | quiz | 300 | subtraction
quiz me on multiplying for twelve minutes | quiz | 720 | multiplication
arithmetic quiz 1 hour | quiz | 3600 | mixed
addition quiz for 45 seconds just to test | quiz | 45 | addition
can u do a 15 min math quiz w/ mixed ops | quiz | 900 | mixed
quiz me adding up for 8 min | quiz | 480 | addition
mixed quiz 3 minutes | quiz | 180 | mixed
minus quiz two min | quiz | 120 | subtraction
mathquiz 10min 🧮 | quiz | 600 | mixed
for my kid: a times-table quiz of six minutes | quiz | 360 | multiplication
start an arithmetic quiz, 25 mins | quiz | 1500 | mixed
quick 5 min 算术 quiz | quiz | 300 | mixed
multiplication quiz for 59 minutes | quiz | 3540 | multiplication
call came in, stop the focus | stop
end the quiz now please | stop
cancel focus but leave the quiz going | stop
stop the times tables, keep focusing | stop
I'm so sorry, could you please stop the timer? | stop
customer just walked in gotta stop focus | stop
abort the quiz | stop
stop both the quiz and the focus | stop
kill the focus timer pls | stop
ok enough, end my focus session | stop
quit quiz, the focus can keep running | stop
stahp the timer 😩 | stop
stop the 测验 pls | stop
how much longer on the focus? | status
time left on the quiz? | status
is the focus timer still going | status
what's running right now? | status
May I ask how many minutes remain? | status
how long have i got left | status
is the quiz over yet | status
remaining time pls | status
am i still in focus mode? | status
what timers do I have going | status
I did a 30 min focus between calls earlier | help
what's the longest focus you can do? | help
remind me to restock the ambulance in an hour | help
wake me at 4:30 for the long run | help
quiz me on chinese tones for 10 minutes | help
can you quiz me on fractions for 5 min | help
my runners are doing a 40 minute tempo run | help
if I focused for 2 hours would I finish? | help
don't stop the timer | help
not now, no quiz | help
pause the focus for 5 min | help
write "order more onigiri" in my notes | help
i scored 27/30 on multiplication!! | help
tonight I'll do a 2 hour focus on the mod | help
why 25 minutes for a pomodoro? | help
good morning! | help
knock knock | help
can the quiz do long division? | help
my labmate started a 1 hour focus | help
thanks, that was helpful | help
how do i see my quiz results | help
ping me when the 10 minute spin is done | help
would a 20 min quiz be too long for a 7 year old? | help
what if I just didn't focus today lol | help
can we do a focus block | ask
let's do 20 minutes | ask
subtraction quiz pls | ask
45 minutes, go | ask
i need to focus on the Henderson file | ask
start a timer | ask
focus for 30 hours straight on the mod release | range
addition quiz for 90 min | range
start a focus of three days | range
an hour and a half of times tables quiz | range
focus 25h | range
"""

HELD_OUT_FRESH24_ZH = """
刚送完病人，专注二十分钟补急救记录 | start | 1200 | 补急救记录
出车间隙，专注十五分钟写交接单 | start | 900 | 写交接单
等活儿的功夫儿，专注半个钟头，练练英语口语 | start | 1800 | 练练英语口语
趁这会儿没活儿，给我来个专注四十分钟，听听相声 | start | 2400 | 听听相声
阿拉孙子叫我用这个，帮我专注四十五分钟，织毛衣 | start | 2700 | 织毛衣
侬帮我开个专注计时，一个钟头，抄经 | start | 3600 | 抄经
下周要教声调，专注五十分钟备课 | start | 3000 | 备课
专注 35 分钟改 HSK 作业 | start | 2100 | 改 HSK 作业
周末中文学校的课，专注1.5小时备课件 | start | 5400 | 备课件
专注一个半小时出填字谜题 | start | 5400 | 出填字谜题
帮我专注二十五分钟，写队员的赛前计划 | start | 1500 | 写队员的赛前计划
專注兩小時，整理比賽報名表 | start | 7200 | 整理比賽報名表
下班了，专注45分钟写高数作业 | start | 2700 | 写高数作业
便利店没人，偷偷专注十分钟背单词 | start | 600 | 背单词
专注1小时 修mod的贴图bug | start | 3600 | 修mod的贴图bug
番茄钟25分钟，写mod更新日志 | start | 1500 | 写mod更新日志
专注12小时 赶game jam | start | 43200 | 赶game jam
麻烦开一个一小时十五分钟的专注，整理庭审笔录 | start | 4500 | 整理庭审笔录
专注二十分钟校对合同 | start | 1200 | 校对合同
细胞在孵育，趁这四十分钟专注写方法部分 | start | 2400 | 写方法部分
跑胶要45分钟，我专注45分钟看文献 | start | 2700 | 看文献
专注五个小时，整理实验数据 | start | 18000 | 整理实验数据
不好意思打扰一下，能否请您帮我开始一个三十分钟的专注？我想读书。 | start | 1800 | 读书
如果方便的话，麻烦帮我计时专注一小时，用来写周报，谢谢 | start | 3600 | 写周报
专注 3 小时 写论文 | start | 10800 | 写论文
focus 40分钟 复习有机化学 | start | 2400 | 复习有机化学
专住20分钟背课文 | start | 1200 | 背课文
开个1h的focus，写code review | start | 3600 | 写code review
给我专注三刻钟，练毛笔字 | start | 2700 | 练毛笔字
专注一小时零五分钟，做报销 | start | 3900 | 做报销
帮我开个专注，两个钟头，准备答辩 | start | 7200 | 准备答辩
半小时专注，做PPT 💻 | start | 1800 | 做PPT
我要专注25分钟，弄一下简历 | start | 1500 | 弄一下简历
四十分钟，写读书报告 | start | 2400 | 写读书报告
专注计时八分钟，冥想 | start | 480 | 冥想
开始專注一小時，寫小說 | start | 3600 | 寫小說
开始专注，半小时 | start | 1800 | -
专注一刻钟 | start | 900 | -
来个专注，二十五分钟 | start | 1500 | -
專注九十分鐘 | start | 5400 | -
专注十八分钟 | start | 1080 | -
来个乘法测验，五分钟 | quiz | 300 | multiplication
考考我九九乘法表，三分钟 | quiz | 180 | multiplication
加法练习十分钟 | quiz | 600 | addition
减法小测 4分钟 | quiz | 240 | subtraction
口算测验半小时 | quiz | 1800 | mixed
来个算术题测验，一刻钟 | quiz | 900 | mixed
帮我孙子出个加法题，考他八分钟 | quiz | 480 | addition
侬帮阿拉囡囡弄个乘法测验，六分钟 | quiz | 360 | multiplication
跑步配速要算，来个混合口算，七分钟 | quiz | 420 | mixed
便利店找零练习：减法测验5分钟 | quiz | 300 | subtraction
數學測驗二十分鐘 | quiz | 1200 | mixed
乘法quiz 2分钟 | quiz | 120 | multiplication
来一个一小时的算术测验 | quiz | 3600 | mixed
减法题考我九十秒 | quiz | 90 | subtraction
能不能麻烦您给我出一个十五分钟的加法测验？ | quiz | 900 | addition
心算练习 12 分钟 | quiz | 720 | mixed
quiz一下，乘法，十分钟 | quiz | 600 | multiplication
给学生热身：三分钟混合运算测验 | quiz | 180 | mixed
做个45秒的加法小测试 | quiz | 45 | addition
数学测验 25分钟 📝 | quiz | 1500 | mixed
乘法口诀考我一下，五分钟就行 | quiz | 300 | multiplication
測驗減法，十分鐘 | quiz | 600 | subtraction
来道算术题，练四十分钟 | quiz | 2400 | mixed
来活儿了，把专注停了 | stop
停止测验 | stop
专注停掉，测验继续 | stop
测验不做了，专注接着来 | stop
不好意思，麻烦帮我结束计时 | stop
有顾客来了，结束专注 | stop
取消测验 | stop
两个都停了吧 | stop
关掉番茄钟 | stop
侬帮我把计时停脱 | stop
不专注了，结束吧 | stop
停止專注 | stop
算了算了 quiz先stop | stop
还剩多久？ | status
专注还有几分钟儿？ | status
测验还剩多少时间 | status
计时器还在跑吗 | status
现在在跑什么？ | status
请问我的专注还剩多长时间？ | status
测验结束了没 | status
还有多久结束啊 | status
專注還在進行嗎？ | status
时间还剩多少 | status
我今天早上专注了两个小时 | help
专注最长能设多久？ | help
一小时后提醒我给病人换药 | help
明早五点叫我起床 | help
考我英语单词十分钟 | help
来个除法测验五分钟 | help
我老婆在专注，别打扰她 | help
要是我专注三个小时会不会太累？ | help
先别开始计时 | help
今天不想做测验 | help
暂停一下专注 | help
把“买牛奶”记到笔记里 | help
我乘法测验得了28分！ | help
晚上八点我要专注一小时 | help
为什么番茄钟是25分钟？ | help
你好呀 | help
讲个笑话 | help
测验能出分数题吗？ | help
谢谢你 | help
阿拉老头子昨天专注了半天 | help
二十分钟的测验对小学生来说太长了吗？ | help
离心十分钟，到了叫我 | help
侬晓得伐，这个计时器哪能用？ | help
开个专注 | ask
整二十分钟吧 | ask
考考我加法 | ask
我得专注看一下合同 | ask
开个计时器 | ask
半小时，开始 | ask
专注三十个小时 | range
乘法测验两个小时 | range
专注三天，把mod做完 | range
来个一个半钟头的口算测验 | range
专注25小时 | range
"""
